// Reading a file the user names, with a bound: a device or a pipe has no size to check first, and a file far larger
// than any input harness reads would only cost memory and time.
import { closeSync, openSync, readSync } from 'node:fs';

const CHUNK = 1024 * 1024;

/**
 * Up to `limit + 1` bytes from an open file: a result longer than `limit` says the file is larger. Read a chunk at a
 * time, so a small file costs a small buffer whatever the limit. Throws fs errors.
 */
export const readFdAtMost = (fd: number, limit: number): Buffer => {
  const chunks: Buffer[] = [];
  let size = 0;
  while (size <= limit) {
    const chunk = Buffer.allocUnsafe(Math.min(CHUNK, limit + 1 - size));
    const n = readSync(fd, chunk, 0, chunk.length, null);
    if (n === 0) break;
    chunks.push(chunk.subarray(0, n));
    size += n;
  }
  return Buffer.concat(chunks, size);
};

/** Up to `limit + 1` bytes of the file at `path` (see readFdAtMost). Throws fs errors. */
export const readAtMost = (path: string, limit: number): Buffer => {
  const fd = openSync(path, 'r');
  try {
    return readFdAtMost(fd, limit);
  } finally {
    closeSync(fd);
  }
};
