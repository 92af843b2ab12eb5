// The report fixture (test/report/fixture.ts) as compare and trend read it: every check one harness has (the fixture
// names some it does not, which the reader refuses as forged), stamped with this harness's SPEC.md digest.
import type { Grade } from '../../src/runner/grades.ts';
import type { CheckResult, RunReport } from '../../src/runner/types.ts';
import { specDigest } from '../../src/spec/digest.ts';
import { FIXTURE_CHECKS, reportOf } from '../report/fixture.ts';

const HARNESS_HAS: Readonly<Record<string, string>> = {
  'ERROR-BAD-SCOPE': 'AUTH-TOKEN-BAD-SCOPE',
  'LIMIT-ADMITS-SCHEDULE': 'LIMIT-ADMITS-RULES-SCHEDULE',
  'LIMIT-RETRY-AFTER-SCHEDULE': 'LIMIT-RETRY-AFTER-RULES-SCHEDULE',
  'VERSION-PATHS': 'LIMITER-ALGORITHM',
  'AUTH-TOKEN-PAYLOAD': 'AUTH-TOKEN-SCHEMA',
};

export const GENUINE_CHECKS: readonly CheckResult[] = FIXTURE_CHECKS.map((c) => ({
  ...c,
  id: HARNESS_HAS[c.id] ?? c.id,
}));

/** A report of `checks` (counts made from them), as this harness stamps it. */
export const genuine = (checks: readonly CheckResult[] = GENUINE_CHECKS, version = '0.1.0'): RunReport => ({
  ...reportOf(checks),
  harness: { name: 'harness', version },
  specDigest: specDigest(),
});

/** The genuine report with one check regraded, its message saying so. */
export const regraded = (id: string, grade: Grade): RunReport =>
  genuine(GENUINE_CHECKS.map((c) => (c.id === id ? { ...c, grade, message: `now ${grade}` } : c)));
