// How a conformance run ends, read from its report alone: the gate it carries (--strict, --baseline,
// --require-certifiable) and its grades, judged by judgeRun, the reading every report's verdict is written from, so
// the exit code and the words beside it cannot disagree.
import { judgeRun } from '../report/run-verdict.ts';
import type { RunReport } from '../runner/types.ts';
import type { Saved } from './report-dir.ts';
import type { RunEnd } from './run-end.ts';

export const conformanceEnd = (report: RunReport, saved: Pick<Saved, 'exitCode'>): RunEnd => {
  const judged = judgeRun(report);
  const broken = report.checks.filter((c) => c.grade === 'ERROR').map((c) => c.id);
  return {
    noun: 'checks',
    // A check the baseline lists is judged by its grade there, INCONCLUSIVE included.
    graded: report.checks.map((c) => ({ grade: c.grade, excused: judged.excused.has(c.id) })),
    strict: judged.strict,
    failedBeside: judged.differences.length > 0,
    failures: judged.uncertifiable
      ? [
          `harness: --require-certifiable: this run cannot certify the target: ${report.notCertifiable.join('; ')}`,
        ]
      : [],
    // The reports are written all the same: they show which checks harness could not judge, and why.
    faults:
      broken.length > 0
        ? [
            `harness: a fault of harness itself (ERROR) in ${broken.join(', ')}: no verdict on the server there`,
          ]
        : [],
    unverified: judged.unverified,
    saved,
  };
};
