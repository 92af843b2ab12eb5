// The one rule for what a grade means to a run: how each graded check or phase counts (failure, error, skipped or
// passed), and the run's verdict, read from its grades and its gate (--strict, --baseline, --require-certifiable,
// which the report carries) exactly as the CLI decides its exit code: conformance's exit is computed from this
// reading (cli/conformance-end.ts). Certifiability is a separate matter: a CI run without --slow never certifies, yet
// can pass.

import { plural } from '../plural.ts';
import { compareBaseline, type Difference } from '../runner/baseline.ts';
import { GRADES, type Grade } from '../runner/grades.ts';
import type { RunReport } from '../runner/types.ts';

export interface RunVerdict {
  /** The exit code's reading: ERROR 4, FAIL 1, NO VERDICT 5, PASS 0. */
  readonly verdict: 'ERROR' | 'FAIL' | 'NO VERDICT' | 'PASS';
  /** The grade whose colour shows it. */
  readonly grade: Extract<Grade, 'ERROR' | 'FAIL' | 'INCONCLUSIVE' | 'PASS'>;
  /** What qualifies it, for the headline; empty when nothing does. */
  readonly detail: string;
}

/** What the exit code is computed from, read once from the report. */
interface RunJudgement {
  readonly strict: boolean;
  /** Checks the baseline lists: only a grade other than the one it expects fails them. */
  readonly excused: ReadonlySet<string>;
  readonly differences: readonly Difference[];
  /** --require-certifiable, on a run that cannot certify the target. */
  readonly uncertifiable: boolean;
  /** Checks not excused that decided nothing on the server (INCONCLUSIVE, or a SKIP the target forced). */
  readonly unverified: readonly string[];
  /** Checks not excused that fail the run (FAIL, and WARN under --strict). */
  readonly failing: readonly string[];
  /** Checks graded as the baseline expects that would otherwise fail the run or leave it without a verdict. */
  readonly accepted: ReadonlyMap<string, Grade>;
}

export const judgeRun = (report: RunReport): RunJudgement => {
  const strict = report.gate?.strict === true;
  const baseline = new Map(Object.entries(report.gate?.baseline ?? {}));
  const unverifiedIds = new Set(report.unverified);
  const counts = (c: RunReport['checks'][number]) => gradeCount(c.grade, !unverifiedIds.has(c.id), strict);
  const excusedChecks = report.checks.filter((c) => baseline.has(c.id));
  // compareBaseline is the exit code's rule: a check whose grade differs from the baseline's fails the run, so it
  // is never accepted, whatever the baseline expected of it.
  const differences = compareBaseline(report, baseline);
  const differing = new Set(differences.map((d) => d.id));
  return {
    strict,
    excused: new Set(excusedChecks.map((c) => c.id)),
    differences,
    uncertifiable: report.gate?.requireCertifiable === true && !report.certifiable,
    unverified: report.unverified.filter((id) => !baseline.has(id)),
    failing: report.checks.filter((c) => !baseline.has(c.id) && counts(c) === 'failure').map((c) => c.id),
    accepted: new Map(
      excusedChecks
        .filter(
          (c) =>
            !differing.has(c.id) && c.grade !== 'ERROR' && counts(c) !== 'passed' && counts(c) !== 'skipped',
        )
        .map((c) => [c.id, c.grade]),
    ),
  };
};

/** "2 FAIL and 1 INCONCLUSIVE", the worst first. */
const gradeTally = (grades: readonly Grade[]): string =>
  GRADES.map((grade) => [grade, grades.filter((g) => g === grade).length] as const)
    .filter(([, n]) => n > 0)
    .map(([grade, n]) => `${n} ${grade}`)
    .join(' and ');

export const runVerdict = (report: RunReport): RunVerdict => {
  if (report.counts.ERROR > 0) {
    return {
      verdict: 'ERROR',
      grade: 'ERROR',
      detail: 'a fault of harness itself, no verdict on the server',
    };
  }
  const judged = judgeRun(report);
  const { differences, failing } = judged;
  const failingWarns = report.checks.filter((c) => failing.includes(c.id) && c.grade === 'WARN').length;
  if (failing.length > 0 || differences.length > 0 || judged.uncertifiable) {
    const why = [
      ...(failingWarns > 0 && failingWarns === failing.length
        ? [`${plural(failingWarns, 'WARN')} under --strict`]
        : []),
      ...(differences.length > 0
        ? [`${plural(differences.length, 'grade')} other than --baseline expects`]
        : []),
      ...(judged.uncertifiable ? ['--require-certifiable: the run cannot certify the target'] : []),
    ];
    return { verdict: 'FAIL', grade: 'FAIL', detail: why.join('; ') };
  }
  // An INCONCLUSIVE, or a SKIP for want of a token, verified nothing there: never a PASS (the CLI exits 5).
  const n = judged.unverified.length;
  if (n > 0 || report.checks.length === 0) {
    return {
      verdict: 'NO VERDICT',
      grade: 'INCONCLUSIVE',
      detail:
        n === 0
          ? 'not one check to judge'
          : `${plural(n, 'check')} INCONCLUSIVE or SKIPped for the target's doing`,
    };
  }
  const withWhat = [
    ...(judged.accepted.size > 0
      ? [`${gradeTally([...judged.accepted.values()])} accepted by --baseline`]
      : []),
    ...(report.counts.WARN > 0 ? ['warnings'] : []),
  ];
  return {
    verdict: 'PASS',
    grade: 'PASS',
    detail: withWhat.length === 0 ? '' : `with ${withWhat.join(', and ')}`,
  };
};

/** "FAIL", "PASS with warnings", "NO VERDICT (2 checks ...)": the same words in every report. */
export const verdictHeadline = ({ verdict, detail }: RunVerdict): string => {
  if (detail === '') return verdict;
  return verdict === 'PASS' ? `${verdict} ${detail}` : `${verdict} (${detail})`;
};

/**
 * How one graded check or phase counts, in a test viewer as in the exit code: `<failure>` an assertion that failed,
 * `<error>` no verdict, `<skipped>` not run.
 */
export type GradeCount = 'passed' | 'failure' | 'error' | 'skipped';

/**
 * FAIL (and WARN under --strict) is a failure: exit 1. ERROR, INCONCLUSIVE and a SKIP the target forced leave the
 * rule unverified (exit 4 or 5), which is no pass and no choice of the user's: an error, so viewers show it red. Only
 * a SKIP the user chose is skipped. WARN, INFO and PASS pass (exit 0); WARN and INFO say so in system-out.
 */
export const gradeCount = (grade: Grade, skipByChoice: boolean, strict: boolean): GradeCount => {
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
