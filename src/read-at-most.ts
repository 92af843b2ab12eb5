// Reading a file the user names, with a bound: a device or a pipe has no size to check first, and a file far larger
// than any input harness reads would only cost memory and time.
import { closeSync, openSync, readSync } from 'node:fs';

/** Up to `limit + 1` bytes of the file: a result longer than `limit` says the file is larger. Throws fs errors. */
export const readAtMost = (path: string, limit: number): Buffer => {
  const fd = openSync(path, 'r');
  try {
    const buffer = Buffer.alloc(limit + 1);
    let size = 0;
    for (let n = -1; n !== 0 && size < buffer.length; size += n) {
      n = readSync(fd, buffer, size, buffer.length - size, null);
    }
    return buffer.subarray(0, size);
  } finally {
    closeSync(fd);
  }
};
