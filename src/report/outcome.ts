// The run's verdict as every report states it, decided as the CLI decides its exit code (without the flags that only
// the command line knows: --strict, --baseline, --require-certifiable). Certifiability is a separate matter: a CI run
// without --slow never certifies, yet can pass.
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
