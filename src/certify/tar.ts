// A gzipped ustar archive of regular files, written and read in memory: enough for certification evidence, which
// holds a handful of report files, and no dependency. `tar -xzf` reads what this writes. The reader takes only
// what the writer writes (ustar regular files), so no tar extension (links, pax headers, GNU long names, sparse
// files) needs parsing, or hardening.
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

/**
 * The most an archive may hold, gzipped or unpacked: a harness archive is a few megabytes (reports and a k6
 * dashboard), and a gzip bomb must end here rather than in memory (README: Bounds).
 */
export const MAX_ARCHIVE_BYTES = 64 * 1024 * 1024;

const field = (block: Buffer, offset: number, length: number): string => {
  const raw = block.subarray(offset, offset + length);
  const end = raw.indexOf(0);
  return raw.subarray(0, end === -1 ? length : end).toString('utf8');
};

/** Only plain octal digits, as harness and GNU tar write them: parseInt would read "12junk" as 10. */
const octalField = (block: Buffer, offset: number, length: number): number | undefined => {
  const text = field(block, offset, length).trim();
  return /^[0-7]+$/.test(text) ? Number.parseInt(text, 8) : undefined;
};

// Control characters would reach the terminal in verify's messages; `.` and `..` parts and empty ones make two
// names for one file, or one outside the folder it is unpacked in.
const safePath = (path: string): boolean =>
  path !== '' &&
  !path.startsWith('/') &&
  !/\p{Cc}/u.test(path) &&
  !path.split('/').some((part) => part === '..' || part === '.' || part === '');

const ZERO_BLOCK = Buffer.alloc(BLOCK);

/** Offset of the first block from `at` on that holds a byte other than zero, or -1. */
const nonZeroBlock = (tar: Buffer, at: number): number => {
  for (let block = at; block < tar.length; block += BLOCK) {
    if (!tar.subarray(block, block + BLOCK).equals(ZERO_BLOCK.subarray(0, tar.length - block))) return block;
  }
  return -1;
};

const gunzipAtMost = (archive: Buffer, limit: number): Buffer => {
  const tooLarge = (what: string, hint = '') =>
    new ArchiveError(`larger than ${limit} bytes ${what}, far more than a harness archive holds${hint}`);
  if (archive.length > limit) throw tooLarge('gzipped');
  try {
    // Node refuses bytes after the gzip data other than zeros, and unpacks a second gzip member after the first:
    // that one is then checked as tar data after the end of the archive.
    return gunzipSync(archive, { maxOutputLength: limit });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE')
      throw tooLarge('unpacked', ' (a gzip bomb?)');
    throw new ArchiveError(`not a gzip file: ${(error as Error).message}`);
  }
};

/**
 * Every entry, in order; throws ArchiveError on corruption, entries other than regular files (links included),
 * unsafe or repeated paths, more than `limit` bytes gzipped or unpacked, and anything but zeros after the
 * end-of-archive blocks: `tar -i` would unpack a second archive there, which no signature covers.
 */
export const untarGz = (archive: Buffer, limit = MAX_ARCHIVE_BYTES): TarEntry[] => {
  const tar = gunzipAtMost(archive, limit);
  const entries: TarEntry[] = [];
  const seen = new Set<string>();
  for (let at = 0; at + BLOCK <= tar.length; ) {
    const block = tar.subarray(at, at + BLOCK);
    if (block.equals(ZERO_BLOCK)) {
      if (at + 2 * BLOCK > tar.length) break;
      const stray = nonZeroBlock(tar, at);
      if (stray !== -1)
        throw new ArchiveError(
          `data after the end-of-archive blocks (byte ${stray}), which tar -i would unpack and no signature covers`,
        );
      return entries;
    }
    const name = field(block, 0, 100);
    const prefix = field(block, 345, 155);
    const path = prefix === '' ? name : `${prefix}/${name}`;
    if (octalField(block, 148, 8) !== checksum(block))
      throw new ArchiveError(`header checksum mismatch at byte ${at}`);
    if (!safePath(path)) throw new ArchiveError(`unsafe path in archive: ${JSON.stringify(path)}`);
    if (field(block, 257, 6) !== 'ustar') throw new ArchiveError(`${path}: not a ustar header`);
    const type = field(block, 156, 1);
    if (!['0', ''].includes(type))
      throw new ArchiveError(
        `${path}: not a regular file (type ${JSON.stringify(type)}: a link, folder or other)`,
      );
    if (seen.has(path)) throw new ArchiveError(`${path} appears twice`);
    seen.add(path);
    const size = octalField(block, 124, 12);
    if (size === undefined || at + BLOCK + size > tar.length)
      throw new ArchiveError(`${path}: size runs past the archive's end`);
    entries.push({ path, data: Buffer.from(tar.subarray(at + BLOCK, at + BLOCK + size)) });
    at += BLOCK + size + padding(size).length;
  }
  throw new ArchiveError('archive ends without its end-of-archive blocks');
};
