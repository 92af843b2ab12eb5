// A gzipped ustar archive of regular files, written and read in memory: enough for certification evidence, which
// holds a handful of report files, and no dependency. `tar -xzf` reads what this writes.
import { gunzipSync, gzipSync } from 'node:zlib';

export interface TarEntry {
  readonly path: string;
  readonly data: Buffer;
}

const BLOCK = 512;

/** Why an archive cannot be read: it is corrupt, or it holds something a harness archive never does. */
export class ArchiveError extends Error {
  override readonly name = 'ArchiveError';
}

/** ustar keeps paths up to 100 bytes in `name`, or up to 255 split at a slash into `prefix` and `name`. */
const splitPath = (path: string): { prefix: string; name: string } => {
  if (Buffer.byteLength(path) <= 100) return { prefix: '', name: path };
  for (let at = path.indexOf('/'); at !== -1; at = path.indexOf('/', at + 1)) {
    const prefix = path.slice(0, at);
    const name = path.slice(at + 1);
    if (Buffer.byteLength(prefix) <= 155 && Buffer.byteLength(name) <= 100) return { prefix, name };
  }
  throw new Error(`path too long for a ustar archive: ${path}`);
};

const octal = (value: number, width: number): string => `${value.toString(8).padStart(width - 1, '0')}\0`;

const checksum = (header: Buffer): number => {
  let sum = 0;
  // The checksum field itself counts as eight spaces.
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 0x20 : header[i]!;
  return sum;
};

const header = (path: string, size: number, mtime: Date): Buffer => {
  const block = Buffer.alloc(BLOCK);
  const { prefix, name } = splitPath(path);
  const put = (text: string, offset: number) => block.write(text, offset, 'utf8');
  put(name, 0);
  put(octal(0o644, 8), 100);
  put(octal(0, 8), 108);
  put(octal(0, 8), 116);
  put(octal(size, 12), 124);
  put(octal(Math.floor(mtime.getTime() / 1000), 12), 136);
  put('0', 156);
  put('ustar\0', 257);
  put('00', 263);
  put(prefix, 345);
  put(`${checksum(block).toString(8).padStart(6, '0')}\0 `, 148);
  return block;
};

const padding = (size: number): Buffer => Buffer.alloc((BLOCK - (size % BLOCK)) % BLOCK);

export const tarGz = (entries: readonly TarEntry[], mtime: Date): Buffer =>
  gzipSync(
    Buffer.concat([
      ...entries.flatMap((e) => [header(e.path, e.data.length, mtime), e.data, padding(e.data.length)]),
      Buffer.alloc(2 * BLOCK),
    ]),
  );

const field = (block: Buffer, offset: number, length: number): string => {
  const raw = block.subarray(offset, offset + length);
  const end = raw.indexOf(0);
  return raw.subarray(0, end === -1 ? length : end).toString('utf8');
};

const safePath = (path: string): boolean =>
  path !== '' && !path.startsWith('/') && !path.split('/').some((part) => part === '..' || part === '');

/** Every entry, in order; throws ArchiveError on corruption, non-file entries, unsafe or repeated paths. */
export const untarGz = (archive: Buffer): TarEntry[] => {
  let tar: Buffer;
  try {
    tar = gunzipSync(archive);
  } catch (error) {
    throw new ArchiveError(`not a gzip file: ${(error as Error).message}`);
  }
  const entries: TarEntry[] = [];
  for (let at = 0; at + BLOCK <= tar.length; ) {
    const block = tar.subarray(at, at + BLOCK);
    if (block.every((byte) => byte === 0)) return entries;
    const name = field(block, 0, 100);
    const prefix = field(block, 345, 155);
    const path = prefix === '' ? name : `${prefix}/${name}`;
    if (Number.parseInt(field(block, 148, 8).trim(), 8) !== checksum(block))
      throw new ArchiveError(`header checksum mismatch at ${path || `byte ${at}`}`);
    if (field(block, 257, 6) !== 'ustar') throw new ArchiveError(`${path}: not a ustar header`);
    if (!['0', ''].includes(field(block, 156, 1))) throw new ArchiveError(`${path}: not a regular file`);
    if (!safePath(path)) throw new ArchiveError(`unsafe path in archive: ${JSON.stringify(path)}`);
    if (entries.some((e) => e.path === path)) throw new ArchiveError(`${path} appears twice`);
    const size = Number.parseInt(field(block, 124, 12).trim(), 8);
    if (!Number.isSafeInteger(size) || at + BLOCK + size > tar.length)
      throw new ArchiveError(`${path}: size runs past the archive's end`);
    entries.push({ path, data: Buffer.from(tar.subarray(at + BLOCK, at + BLOCK + size)) });
    at += BLOCK + size + padding(size).length;
  }
  throw new ArchiveError('archive ends without its end-of-archive blocks');
};
