// A run's reports appear whole or not at all. Written in place, a disk that filled up or a folder made read-only
// while the run went on left a 0-byte conformance.json that a later step took for a report. Each file is written
// under a temporary name beside its own, flushed, and renamed only once every file is written: rename within a
// folder replaces atomically, so a reader sees no file or a whole one.
import { randomBytes } from 'node:crypto';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { HarnessError } from '../errors.ts';

/** The reports could not be written: names the file and the reason (ENOSPC, EROFS, EACCES...). */
export class ReportWriteError extends HarnessError {
  override readonly name = 'ReportWriteError';

  constructor(
    message: string,
    /** The files that were written whole before the failure (none unless a rename failed part way). */
    readonly written: readonly string[],
  ) {
    super('HARNESS_REPORT_WRITE', message);
  }
}

declare module '../errors.ts' {
  interface ErrorClasses {
    HARNESS_REPORT_WRITE: ReportWriteError;
  }
}

/** Writes a new file at `path`; a test injects one that fails as a full disk does, part way through. */
export type WriteNew = (path: string, content: string) => Promise<void>;

/**
 * 'wx' creates the file or fails: nothing that appeared at the name (a link, say) is written through. The flush comes
 * before the rename, so a crash cannot leave the new name over a file whose bytes never reached the disk.
 */
export const writeNew: WriteNew = async (path, content) => {
  const handle = await open(path, 'wx', 0o644);
  try {
    await handle.writeFile(content, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
};

const codeOf = (error: unknown): string => (error as NodeJS.ErrnoException).code ?? String(error);

/**
 * Writes each of `files` (name to content) into `dir`, which it makes if it must. Throws ReportWriteError, having
 * removed every temporary file it can, when one cannot be written: no file in `dir` is then changed. Only a rename
 * failing part way (rare: the files are written by then) leaves the files before it in place, listed in `written`.
 */
export const writeWhole = async (
  dir: string,
  files: readonly (readonly [name: string, content: string])[],
  write: WriteNew = writeNew,
): Promise<string[]> => {
  try {
    await mkdir(dir, { recursive: true });
  } catch (error) {
    throw new ReportWriteError(`cannot create ${dir}: ${codeOf(error)}`, []);
  }
  const tag = `${process.pid}-${randomBytes(4).toString('hex')}`;
  const pending = files.map(([name], i) => ({
    temp: join(dir, `.${name}.${tag}-${i}.tmp`),
    file: join(dir, name),
  }));
  // A temporary file that cannot be removed either (the folder turned read-only after it was written) stays: the
  // error that stopped the writing is the one to report.
  const removeLeft = (from: number) =>
    Promise.allSettled(pending.slice(from).map(({ temp }) => rm(temp, { force: true })));
  for (const [i, { temp, file }] of pending.entries()) {
    try {
      await write(temp, files[i]![1]);
    } catch (error) {
      await removeLeft(0);
      throw new ReportWriteError(`cannot write ${file}: ${codeOf(error)}`, []);
    }
  }
  const written: string[] = [];
  for (const [i, { temp, file }] of pending.entries()) {
    try {
      await rename(temp, file);
    } catch (error) {
      await removeLeft(i);
      throw new ReportWriteError(`cannot write ${file}: ${codeOf(error)}`, written);
    }
    written.push(file);
  }
  return written;
};
