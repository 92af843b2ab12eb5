// How every run ends, conformance's, replay's and load's alike: from what it judged, the lines stderr gets and the
// exit code, by the exit table's one rule (exitCodeOf, exit-codes.ts). A command gathers what it judged and hands it
// here; what it adds beside the run (a signal, reports it could not write) joins by the same rule.
import { complain, type TerminalText, tty } from '../printable.ts';
import { gradeCount } from '../report/run-verdict.ts';
import type { Grade } from '../runner/grades.ts';
import {
  type ExitCode,
  exitCodeOf,
  FAILED,
  HARNESS_ERROR,
  NO_VERDICT,
  noVerdictLine,
  PASSED,
} from './exit-codes.ts';
import type { Saved } from './report-dir.ts';

export interface RunEnd {
  readonly noun: 'checks' | 'phases';
  /** Every check or phase judged; `excused`: a baseline expects its grade, so only the baseline judges it. */
  readonly graded: readonly { readonly grade: Grade; readonly excused?: boolean }[];
  readonly strict: boolean;
  /** The run fails beside its grades, already shown (a baseline difference), */
  readonly failedBeside?: boolean;
  /** or fails for a reason stderr is told here (--require-certifiable unmet). */
  readonly failures?: readonly string[];
  /** Faults of harness itself (or of k6), a line each for stderr: no verdict where they struck; */
  readonly faults?: readonly string[];
  /** or one already shown (k6's exit, in load's summary). */
  readonly faultBeside?: boolean;
  /** What decided nothing: INCONCLUSIVE, or a SKIP the target forced. */
  readonly unverified: readonly string[];
  readonly saved: Pick<Saved, 'exitCode'>;
  /** What to do when nothing was decided (by default, retry once the target can be measured), */
  readonly remedy?: string;
  /** and the lines of advice after it. */
  readonly advice?: readonly string[];
}

/**
 * Says on stderr (`say`) why the run fails or decided nothing, and gives its exit code. Each line is escaped whole:
 * the ids, reasons and advice in it come from the report, a phase's message or the target.
 */
export const endRun = (end: RunEnd, say: (line: TerminalText) => void = complain): ExitCode => {
  const failures = end.failures ?? [];
  const faults = end.faults ?? [];
  for (const line of [...failures, ...faults]) say(tty`${line}`);
  const failed =
    end.failedBeside === true ||
    failures.length > 0 ||
    end.graded.some((u) => !u.excused && gradeCount(u.grade, true, end.strict) === 'failure');
  const exitCode = exitCodeOf([
    faults.length > 0 || end.faultBeside === true ? HARNESS_ERROR : PASSED,
    failed ? FAILED : PASSED,
    // A run that judged nothing verified nothing: no verdict, never a pass.
    end.unverified.length > 0 || end.graded.length === 0 ? NO_VERDICT : PASSED,
    end.saved.exitCode,
  ]);
  if (exitCode === NO_VERDICT) {
    say(tty`${noVerdictLine(end.noun, end.unverified, end.remedy)}`);
    for (const line of end.advice ?? []) say(tty`${line}`);
  }
  return exitCode;
};
