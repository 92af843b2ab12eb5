// `harness replay --failed [RUN]`: what a run found against the target (its FAIL, WARN and INCONCLUSIVE checks),
// each marked after one run of them all: still failing, fixed, or not verified. The run's report is read back as
// compare reads one (validated, bounded), since it may have been written anywhere, or by hand.
import { join } from 'node:path';
import { readRun } from '../compare/run-docs.ts';
import { plural } from '../plural.ts';
import { type TerminalText, tty } from '../printable.ts';
import { refusal } from '../read-back.ts';
import type { Grade } from '../runner/grades.ts';
import type { CheckResult, RunReport } from '../runner/types.ts';
import { type GradePainter, gradePainter } from '../terminal/colour.ts';
import { type ExitCode, exitCodeOf, FAILED, NO_VERDICT, PASSED } from './exit-codes.ts';

/** The grades a run reports against the target or could not decide: what a fix is meant to change. */
const REPLAYED: ReadonlySet<Grade> = new Set(['FAIL', 'WARN', 'INCONCLUSIVE']);

/** What one replay shows of a check the run reported. */
type ReplayStatus = 'still failing' | 'fixed' | 'not verified';

/**
 * A WARN still WARN is not fixed, with or without --strict: the question is whether the finding is gone. A check the
 * replay did not decide (INCONCLUSIVE, SKIP, ERROR, absent) proves neither.
 */
const statusOf = (grade: Grade | undefined): ReplayStatus =>
  grade === 'FAIL' || grade === 'WARN'
    ? 'still failing'
    : grade === 'PASS' || grade === 'INFO'
      ? 'fixed'
      : 'not verified';

const EXIT_CODE_OF: Readonly<Record<ReplayStatus, ExitCode>> = {
  'still failing': FAILED,
  fixed: PASSED,
  'not verified': NO_VERDICT,
};

/** How a status is coloured: as the grade that means the same. */
const COLOUR_OF: Readonly<Record<ReplayStatus, Grade>> = {
  'still failing': 'FAIL',
  fixed: 'PASS',
  'not verified': 'INCONCLUSIVE',
};

/** The folder `--failed` names, or `<report-dir>/latest`, which a replay never moves. */
export const runToReplay = (failed: string | true, reportDir: string): string =>
  failed === true ? join(reportDir, 'latest') : failed;

/** The checks of `run` (a run's folder or its conformance.json) to replay; exit 2 naming it when it holds none. */
export const checksToReplay = (run: string): readonly CheckResult[] => {
  const { conformance } = readRun(run);
  if (conformance === undefined) {
    throw refusal(run, 'holds no conformance.json: replay --failed replays a conformance run');
  }
  return conformance.checks.filter((check) => REPLAYED.has(check.grade));
};

export interface Marked {
  readonly lines: readonly TerminalText[];
  readonly exitCode: ExitCode;
}

/** A line per check replayed, then the counts and the command's exit code (theirs and the run's `runExitCode`). */
export const markReplayed = (
  before: readonly CheckResult[],
  replayed: RunReport | undefined,
  runExitCode: ExitCode,
  paint: GradePainter = gradePainter(process.stdout),
): Marked => {
  const now = new Map(replayed?.checks.map((check) => [check.id, check]));
  const marked = before.map((check) => {
    const after = now.get(check.id);
    const status = statusOf(after?.grade);
    const text = tty`${status.padEnd('still failing'.length)}`;
    return {
      status,
      line: tty`${paint(COLOUR_OF[status], text)}  ${check.id}: ${after?.grade ?? 'not run'}, was ${check.grade}`,
    };
  });
  const exitCode = exitCodeOf([runExitCode, ...marked.map(({ status }) => EXIT_CODE_OF[status])]);
  const count = (status: ReplayStatus) => marked.filter((m) => m.status === status).length;
  return {
    lines: [
      ...marked.map(({ line }) => line),
      tty`replayed ${plural(marked.length, 'check')}: ${count('still failing')} still failing, ${count('fixed')} fixed, ${count('not verified')} not verified (exit ${exitCode})`,
    ],
    exitCode,
  };
};
