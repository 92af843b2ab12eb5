// Against each injected fault, exactly the checks for the broken rule deviate: the table below is the contract
// between the faults (src/reference/faults.ts) and the checks (conformance/).
import { describe, expect, it } from 'vitest';
import { FAULTS, type FaultName } from '../../src/reference/index.ts';
import { BUCKETS, type BucketId } from '../../src/spec/index.ts';
import { deviations, runAgainst } from '../../src/testbed/conformance.ts';

const everyBucket = (prefix: string): string[] =>
  (Object.keys(BUCKETS) as BucketId[]).map((b) =>
    prefix === 'LIMIT-ENFORCED' && b === 'observability'
      ? 'LIMIT-OBSERVABILITY-SHARED'
      : `${prefix}-${b.toUpperCase()}`,
  );
const all = (grade: string, ids: string[]) => Object.fromEntries(ids.map((id) => [id, grade]));
/** Telling limiters apart starts from a Retry-After that was honoured. */
const unclassified = { 'LIMITER-ALGORITHM': 'SKIP' };
/** A 429 that is missing or malformed leaves nothing to wait for: the retry check says so (SKIP), it does not fail. */
const badRetryAfter = {
  ...all('FAIL', everyBucket('LIMIT-RETRY-AFTER')),
  ...all('SKIP', everyBucket('LIMIT-RETRY-HONOURED')),
  ...unclassified,
};
/** Without a 429 there is no Retry-After to examine or wait out. */
const no429 = (enforced: string, bucket: string) => ({
  [enforced]: 'FAIL',
  [`LIMIT-RETRY-AFTER-${bucket}`]: 'SKIP',
  [`LIMIT-RETRY-HONOURED-${bucket}`]: 'SKIP',
});

const EXPECTED: Partial<Record<FaultName, Record<string, string>>> = {
  'token-type-lowercase': { 'AUTH-TOKEN-TYPE': 'FAIL' },
  'expires-in-wrong': { 'AUTH-TOKEN-EXPIRES-IN': 'FAIL' },
  'expires-in-string': { 'AUTH-TOKEN-SCHEMA': 'FAIL', 'AUTH-TOKEN-EXPIRES-IN': 'FAIL' },
  'grant-type-unchecked': { 'AUTH-TOKEN-GRANT-TYPE': 'FAIL' },
  'wrong-secret-401': { 'AUTH-TOKEN-BAD-SECRET': 'FAIL' },
  'malformed-scope-accepted': { 'AUTH-TOKEN-BAD-SCOPE': 'FAIL' },
  'no-cache-control': { 'AUTH-TOKEN-NO-STORE': 'WARN' },
  'retry-after-missing': badRetryAfter,
  'retry-after-http-date': badRetryAfter,
  'retry-after-fractional': badRetryAfter,
  // The capacity still comes back (later than said), so the limiter is told apart all the same.
  'retry-after-too-short': all('FAIL', everyBucket('LIMIT-RETRY-HONOURED')),
  'limit-per-client': { 'LIMIT-TENANT-SHARED': 'FAIL' },
  'limit-shared-across-tenants': { 'LIMIT-TENANT-ISOLATED': 'FAIL' },
  'observability-separate-buckets': {
    ...no429('LIMIT-OBSERVABILITY-SHARED', 'OBSERVABILITY'),
    ...unclassified,
  },
  'limit-per-path-id': { 'LIMIT-PATH-ID-SHARED': 'FAIL' },
  // 40 admitted per window: more than 30 right after a window edge, yet 429s (with Retry-After) past the 40th.
  'wrong-limit-execute': { 'LIMIT-ENFORCED-RULES-EXECUTE': 'FAIL' },
  'wrong-limit-transaction': { 'LIMIT-ADMITS-TRANSACTION-EVENT': 'FAIL' },
  'no-limit-schedule': {
    ...no429('LIMIT-ENFORCED-RULES-SCHEDULE', 'RULES-SCHEDULE'),
    // Sharing is judged only once the bucket is spent.
    'LIMIT-TENANT-SHARED': 'SKIP',
    'LIMIT-TENANT-ISOLATED': 'SKIP',
  },
  'forbidden-as-401': { 'AUTH-FORBIDDEN': 'FAIL' },
  'missing-token-accepted': { 'AUTH-BEARER-MISSING': 'FAIL' },
  'truncated-token-accepted': { 'AUTH-BEARER-TRUNCATED': 'FAIL' },
  'expired-token-accepted': { 'AUTH-TOKEN-EXPIRY': 'FAIL' },
};

/** Faults that take away what other checks stand on (a token, a 429 at all): FAIL on the rule, SKIP elsewhere. */
const CASCADING: Partial<Record<FaultName, string[]>> = {
  'token-json-only': ['AUTH-TOKEN-FORM'],
  'token-single-use': ['AUTH-TOKEN-REUSE'],
  'limited-as-503': everyBucket('LIMIT-ENFORCED'),
};

describe.concurrent('conformance suite against each fault', () => {
  it('covers every fault the reference server has', () => {
    expect(new Set([...Object.keys(EXPECTED), ...Object.keys(CASCADING)])).toEqual(
      new Set(FAULTS.map((f) => f.name)),
    );
  });

  it.each(Object.entries(EXPECTED))(
    '%s: exactly the checks for the broken rule deviate',
    async (fault, expected) => {
      const [report] = await runAgainst({ fault: fault as FaultName });
      expect(deviations(report!)).toEqual(expected);
    },
  );

  it.each(Object.entries(CASCADING))(
    '%s: the broken rule fails; what depends on it is skipped, never failed',
    async (fault, failing) => {
      const [report] = await runAgainst({ fault: fault as FaultName });
      const found = deviations(report!);
      expect(
        Object.keys(found)
          .filter((id) => found[id] !== 'SKIP')
          .sort(),
      ).toEqual([...failing!].sort());
      for (const id of failing!) expect(found[id]).toBe('FAIL');
    },
  );
});
