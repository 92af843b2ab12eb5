// The entries of a gzipped archive, whole, for tests that look inside one: read by the reader verify streams with.
import type { TarEntry } from '../../src/certify/tar.ts';
import { readTarGz } from '../../src/certify/untar.ts';

/** `chunk`: the size of the pieces the archive is read in. */
export const untarGz = async (archive: Buffer, limit?: number, chunk = 64 * 1024): Promise<TarEntry[]> => {
  const entries: TarEntry[] = [];
  const pieces = Array.from({ length: Math.ceil(archive.length / chunk) }, (_, i) =>
    archive.subarray(i * chunk, (i + 1) * chunk),
  );
  await readTarGz(
    pieces,
    (path) => {
      const chunks: Buffer[] = [];
      return {
        write: (chunk) => chunks.push(chunk),
        end: () => entries.push({ path, data: Buffer.concat(chunks) }),
      };
    },
    limit,
  );
  return entries;
};
