// The one rule for what a grade means to a run: how each graded check or phase counts (failure, error, skipped or
// passed), and the run's verdict as every report states it, decided as the CLI decides its exit code (without the
// flags that only the command line knows: --strict, --baseline, --require-certifiable). Certifiability is a separate
// matter: a CI run without --slow never certifies, yet can pass.
import type { Grade } from '../runner/grades.ts';
import type { RunReport } from '../runner/types.ts';

export interface RunOutcome {
  /** The exit code's reading: ERROR 4, FAIL 1, NO VERDICT 5, PASS 0. */
  readonly outcome: 'ERROR' | 'FAIL' | 'NO VERDICT' | 'PASS';
  /** The grade whose colour shows it. */
  readonly grade: Extract<Grade, 'ERROR' | 'FAIL' | 'INCONCLUSIVE' | 'PASS'>;
  /** What qualifies it, for the headline; empty when nothing does. */
  readonly detail: string;
}

export const runOutcome = (report: RunReport): RunOutcome => {
  if (report.counts.ERROR > 0) {
    return {
      outcome: 'ERROR',
      grade: 'ERROR',
      detail: 'a fault of harness itself, no verdict on the server',
    };
  }
  if (report.counts.FAIL > 0) return { outcome: 'FAIL', grade: 'FAIL', detail: '' };
  // An INCONCLUSIVE, or a SKIP for want of a token, verified nothing there: never a PASS (the CLI exits 5).
  const n = report.unverified.length;
  if (n > 0) {
    return {
      outcome: 'NO VERDICT',
      grade: 'INCONCLUSIVE',
      detail: `${n} check${n === 1 ? '' : 's'} INCONCLUSIVE or SKIPped for the target's doing`,
    };
  }
  return { outcome: 'PASS', grade: 'PASS', detail: report.counts.WARN > 0 ? 'with warnings' : '' };
};

/** "FAIL", "PASS with warnings", "NO VERDICT (2 checks ...)": the same words in every report. */
export const outcomeHeadline = ({ outcome, detail }: RunOutcome): string => {
  if (detail === '') return outcome;
  return outcome === 'PASS' ? `${outcome} ${detail}` : `${outcome} (${detail})`;
};

/**
 * How one graded check or phase counts, in a test viewer as in the exit code: `<failure>` an assertion that failed,
 * `<error>` no verdict, `<skipped>` not run.
 */
export type GradeOutcome = 'passed' | 'failure' | 'error' | 'skipped';

/**
 * FAIL (and WARN under --strict) is a failure: exit 1. ERROR, INCONCLUSIVE and a SKIP the target forced leave the
 * rule unverified (exit 4 or 5), which is no pass and no choice of the user's: an error, so viewers show it red. Only
 * a SKIP the user chose is skipped. WARN, INFO and PASS pass (exit 0); WARN and INFO say so in system-out.
 */
export const gradeOutcome = (grade: Grade, skipByChoice: boolean, strict: boolean): GradeOutcome => {
  switch (grade) {
    case 'FAIL':
      return 'failure';
    case 'WARN':
      return strict ? 'failure' : 'passed';
    case 'ERROR':
    case 'INCONCLUSIVE':
      return 'error';
    case 'SKIP':
      return skipByChoice ? 'skipped' : 'error';
    case 'INFO':
    case 'PASS':
      return 'passed';
  }
};
