// The exit code and the verdict every report writes are read from one judgement (judgeRun): for each shape of gate
// and grades, the code conformance exits with is the one the report's headline names.
import { describe, expect, it } from 'vitest';
import { conformanceEnd } from '../../src/cli/conformance-end.ts';
import { FAILED, HARNESS_ERROR, NO_VERDICT, PASSED } from '../../src/cli/exit-codes.ts';
import { endRun } from '../../src/cli/run-end.ts';
import { type RunVerdict, runVerdict, verdictHeadline } from '../../src/report/run-verdict.ts';
import type { Grade } from '../../src/runner/grades.ts';
import type { RunGate, RunReport } from '../../src/runner/types.ts';
import { FIXTURE_CHECKS, reportOf } from '../report/fixture.ts';

const EXIT_OF: Readonly<Record<RunVerdict['verdict'], number>> = {
  ERROR: HARNESS_ERROR,
  FAIL: FAILED,
  'NO VERDICT': NO_VERDICT,
  PASS: PASSED,
};

const regraded = (grades: Readonly<Record<string, Grade>>, gate?: Partial<RunGate>): RunReport => {
  const checks = FIXTURE_CHECKS.map((c) => ({ ...c, grade: grades[c.id] ?? 'PASS' }));
  const report = reportOf(checks);
  return {
    ...report,
    certifiable: true,
    notCertifiable: [],
    ...(gate === undefined ? {} : { gate: { strict: false, requireCertifiable: false, ...gate } }),
  };
};

const SHAPES: readonly (readonly [string, RunReport, RunVerdict['verdict'], string])[] = [
  ['every check PASS', regraded({}), 'PASS', 'PASS'],
  ['a FAIL', regraded({ 'ERROR-BAD-SCOPE': 'FAIL' }), 'FAIL', 'FAIL'],
  [
    'a FAIL the baseline expects',
    regraded({ 'ERROR-BAD-SCOPE': 'FAIL' }, { baseline: { 'ERROR-BAD-SCOPE': 'FAIL' } }),
    'PASS',
    'PASS with 1 FAIL accepted by --baseline',
  ],
  [
    'a FAIL and an INCONCLUSIVE the baseline expects, and a WARN',
    {
      ...regraded(
        {
          'ERROR-BAD-SCOPE': 'FAIL',
          'AUTH-TOKEN-TYPE': 'WARN',
          'ENDPOINT-POST-API-RULES-RERUN': 'INCONCLUSIVE',
        },
        { baseline: { 'ERROR-BAD-SCOPE': 'FAIL', 'ENDPOINT-POST-API-RULES-RERUN': 'INCONCLUSIVE' } },
      ),
      unverified: ['ENDPOINT-POST-API-RULES-RERUN'],
    },
    'PASS',
    'PASS with 1 FAIL and 1 INCONCLUSIVE accepted by --baseline, and warnings',
  ],
  [
    'a PASS where the baseline expects a FAIL',
    regraded({}, { baseline: { 'ERROR-BAD-SCOPE': 'FAIL' } }),
    'FAIL',
    'FAIL (1 grade other than --baseline expects)',
  ],
  [
    'a FAIL where the baseline expects a PASS',
    regraded({ 'ERROR-BAD-SCOPE': 'FAIL' }, { baseline: { 'ERROR-BAD-SCOPE': 'PASS' } }),
    'FAIL',
    'FAIL (1 grade other than --baseline expects)',
  ],
  [
    'a WARN under --strict',
    regraded({ 'AUTH-TOKEN-TYPE': 'WARN' }, { strict: true }),
    'FAIL',
    'FAIL (1 WARN under --strict)',
  ],
  ['a WARN without --strict', regraded({ 'AUTH-TOKEN-TYPE': 'WARN' }, {}), 'PASS', 'PASS with warnings'],
  [
    '--require-certifiable on a run that cannot certify',
    { ...regraded({}, { requireCertifiable: true }), certifiable: false, notCertifiable: ['no --slow'] },
    'FAIL',
    'FAIL (--require-certifiable: the run cannot certify the target)',
  ],
  [
    'an INCONCLUSIVE',
    {
      ...regraded({ 'ENDPOINT-POST-API-RULES-RERUN': 'INCONCLUSIVE' }),
      unverified: ['ENDPOINT-POST-API-RULES-RERUN'],
    },
    'NO VERDICT',
    "NO VERDICT (1 check INCONCLUSIVE or SKIPped for the target's doing)",
  ],
  [
    'an ERROR the baseline expects',
    regraded({ 'ERROR-BAD-SCOPE': 'ERROR' }, { baseline: { 'ERROR-BAD-SCOPE': 'ERROR' } }),
    'ERROR',
    'ERROR (a fault of harness itself, no verdict on the server)',
  ],
  ['no check at all', { ...regraded({}), checks: [] }, 'NO VERDICT', 'NO VERDICT (not one check to judge)'],
];

describe('conformance exits as its reports read', () => {
  it.each(SHAPES)('%s', (_, report, verdict, headline) => {
    const reading = runVerdict(report);
    expect(verdictHeadline(reading)).toBe(headline);
    expect(reading.verdict).toBe(verdict);
    expect(endRun(conformanceEnd(report, { exitCode: PASSED }), () => undefined)).toBe(EXIT_OF[verdict]);
  });
});
