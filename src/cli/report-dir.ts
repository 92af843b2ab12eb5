// The run's report directory: made before the first request, so a place that cannot hold reports loses no run; and
// written to after the last, where a disk that filled up or turned read-only meanwhile must not lose the verdicts.
import { resolve } from 'node:path';
import { InputError, isHarnessError } from '../errors.ts';
import { complain, tty } from '../printable.ts';
import { appendStepSummary } from '../report/step-summary.ts';
import { timestampDir, type Written } from '../report/write.ts';
import { PASSED, REPORTS_NOT_WRITTEN } from './exit-codes.ts';

export const reportDirFor = async (reportDir: string): Promise<string> => {
  try {
    return await timestampDir(resolve(reportDir));
  } catch (error) {
    if (isHarnessError(error, 'HARNESS_REPORT_DIR'))
      throw new InputError(`--report-dir ${reportDir}: ${error.message}`);
    throw error;
  }
};

export interface Saved {
  /** The files written whole: none when writing failed before any was renamed into place. */
  readonly files: readonly string[];
  /** REPORTS_NOT_WRITTEN when they could not all be written, for the command's exitCodeOf; PASSED otherwise. */
  readonly exitCode: typeof PASSED | typeof REPORTS_NOT_WRITTEN;
}

/** For a command's result: whether its reports were lost (certify then archives none of them, and says why). */
export const lostReports = (saved: Pick<Saved, 'exitCode'>): { readonly reportsNotWritten?: true } =>
  saved.exitCode === PASSED ? {} : { reportsNotWritten: true };

/**
 * Appends `markdown` (the verdicts) to the job summary where the job has one, saying on stderr when that fails. Every
 * line on stderr here names a path or quotes an error of the file system: shown through `tty`, as a name is.
 */
const addToJobSummary = async (markdown: string): Promise<void> => {
  const failed = await appendStepSummary(markdown);
  if (failed !== undefined) complain(tty`${failed}`);
};

/**
 * Writes the reports, saying on stderr why `latest` stays or why they could not be written. The caller prints its
 * summary either way: when the reports are lost, stdout is the run's only record.
 */
const writeSaved = async (write: () => Promise<Written>): Promise<Saved> => {
  try {
    const written = await write();
    if (written.latestNotMoved) complain(tty`harness: ${written.latestNotMoved}`);
    return { files: written.files, exitCode: PASSED };
  } catch (error) {
    if (!isHarnessError(error, 'HARNESS_REPORT_WRITE')) throw error;
    complain(
      tty`harness: reports not written (exit ${REPORTS_NOT_WRITTEN}): ${error.message}; no file is left half written${
        error.written.length === 0 ? ', and the summary on stdout is all this run leaves' : ''
      }`,
    );
    return { files: error.written, exitCode: REPORTS_NOT_WRITTEN };
  }
};

/**
 * A finished run's reporters, handed its report: the files (whose result is what was written, or lost), then the job
 * summary, which copies the verdict the files already hold. The caller prints its summary after them, either way.
 */
export const reportRun = async (write: () => Promise<Written>, markdown: string): Promise<Saved> => {
  const saved = await writeSaved(write);
  await addToJobSummary(markdown);
  return saved;
};

/** The reports of a run that never started (no event stream): its verdicts on the job summary, then its files. */
export const saveReports = async (write: () => Promise<Written>, markdown: string): Promise<Saved> => {
  await addToJobSummary(markdown);
  return writeSaved(write);
};
