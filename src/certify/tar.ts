// A gzipped ustar archive of regular files, written in memory: enough for certification evidence, which holds a
// handful of report files, and no dependency. `tar -xzf` reads what this writes; untar.ts reads only what this
// writes (ustar regular files), so no tar extension (links, pax headers, GNU long names, sparse files) needs
// parsing, or hardening.
import { gzipSync } from 'node:zlib';

export interface TarEntry {
  readonly path: string;
  readonly data: Buffer;
}

export const BLOCK = 512;

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

export const checksum = (header: Buffer): number => {
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

export const padding = (size: number): Buffer => Buffer.alloc((BLOCK - (size % BLOCK)) % BLOCK);

export const tarGz = (entries: readonly TarEntry[], mtime: Date): Buffer =>
  gzipSync(
    Buffer.concat([
      ...entries.flatMap((e) => [header(e.path, e.data.length, mtime), e.data, padding(e.data.length)]),
      Buffer.alloc(2 * BLOCK),
    ]),
  );
