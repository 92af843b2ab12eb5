// The one reader of every file harness reads back: conformance reports and load summaries (compare, trend), runner
// summaries and logs (load merge) and baselines. Such a file is untrusted: it was written elsewhere, or could have
// been. Only a regular file is read (a FIFO would hang the read, /dev/zero never end it), and it is opened once and
// checked on the open descriptor, so a name swapped for a pipe or a device between a check and the read is still
// refused; and never more than MAX_READ_BACK_BYTES of it.
import { closeSync, constants, fstatSync, openSync, type Stats } from 'node:fs';
import { InputError, isHarnessError } from './errors.ts';
import { printable } from './printable.ts';
import { readFdAtMost } from './read-at-most.ts';

/**
 * The most any file read back may hold, one cap for every kind. The largest genuine ones are load summaries: about
 * 54 bytes a slot (pretty-printed JSON, four numbers a slot), 68 KB for `--scenario transactions,execute` against
 * the embedded server, about 220 KB for `--scenario all` at SPEC.md's timings, 61 MB for `--scenario all --duration
 * 1h` (8 hours of load, 1.1 million slots), which reads and validates in 0.7 s and 210 MB. Twice that bounds the
 * memory near half a GB, where a 1 GB file took 2.2 GB. A conformance report of every check is under 1 MB.
 */
export const MAX_READ_BACK_BYTES = 128 * 1024 * 1024;

/** Bad input naming the file: one line, made printable, since the name and the reason may come from the file. */
export const refusal = (file: string, why: string): InputError =>
  new InputError(printable(`${file}: ${why}`));

const whatItIs = (stats: Stats): string =>
  stats.isDirectory()
    ? 'a folder'
    : stats.isFIFO()
      ? 'a pipe (FIFO)'
      : stats.isCharacterDevice() || stats.isBlockDevice()
        ? 'a device'
        : stats.isSocket()
          ? 'a socket'
          : 'something else';

const tooLarge = (file: string, size: string) =>
  refusal(file, `${size} bytes, more than the ${MAX_READ_BACK_BYTES} any file harness reads back may hold`);

/**
 * The file's text; exit 2 naming it (as `named`, e.g. with the flag that gave it) when it is not a regular file, is
 * larger than the cap or cannot be read.
 */
export const readBack = (file: string, named = file): string => {
  let fd: number;
  try {
    // Non-blocking: opening a FIFO no one writes to would otherwise wait forever, before fstat could refuse it.
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    throw refusal(named, `cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) {
      throw refusal(named, `${whatItIs(stats)}, not a regular file: harness reads back only files`);
    }
    if (stats.size > MAX_READ_BACK_BYTES) throw tooLarge(named, String(stats.size));
    const bytes = readFdAtMost(fd, MAX_READ_BACK_BYTES);
    if (bytes.length > MAX_READ_BACK_BYTES) throw tooLarge(named, `over ${MAX_READ_BACK_BYTES}`);
    return bytes.toString('utf8');
  } catch (error) {
    if (isHarnessError(error, 'HARNESS_INPUT')) throw error;
    throw refusal(named, `cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  } finally {
    closeSync(fd);
  }
};

/** The file parsed as JSON (see readBack); exit 2 naming it when it is not JSON. */
export const readBackJson = (file: string, named = file): unknown => {
  const text = readBack(file, named);
  try {
    return JSON.parse(text);
  } catch (error) {
    throw refusal(named, `not JSON (${(error as Error).message})`);
  }
};
