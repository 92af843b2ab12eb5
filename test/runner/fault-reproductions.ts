// Which checks each fault of the reference server FAILs, and how their reproduction shows it: the by-hand ones (curl)
// run in test/runner/reproductions.test.ts, the replayed ones (`harness replay`, a limit's burst) in
// test/cli/replay-faults.test.ts. Each runs the fault's checks in the area given, as test/conformance/faults.test.ts
// does (there, that exactly these deviate).
import type { FaultName } from '../../src/reference/index.ts';

/** What the fault's reproduction shows: the last answer's status, or a body the faithful server never sends. */
export type Shows = { readonly status: number } | { readonly body: RegExp };

/** Each fault whose FAIL is reproduced by hand, its FAILing checks, and what their commands show. */
export const BY_HAND: Partial<Record<FaultName, readonly [checks: readonly string[], shows: Shows]>> = {
  'token-type-lowercase': [['AUTH-TOKEN-TYPE'], { body: /"token_type":"bearer"/ }],
  // Twice the 5 s lifetime of the scaled server.
  'expires-in-wrong': [['AUTH-TOKEN-EXPIRES-IN'], { body: /"expires_in":10\b/ }],
  'expires-in-string': [['AUTH-TOKEN-SCHEMA', 'AUTH-TOKEN-EXPIRES-IN'], { body: /"expires_in":"5"/ }],
  'token-json-only': [['AUTH-TOKEN-FORM'], { status: 400 }],
  'grant-type-unchecked': [['AUTH-TOKEN-GRANT-TYPE'], { status: 200 }],
  'wrong-secret-401': [['AUTH-TOKEN-BAD-SECRET'], { status: 401 }],
  'unknown-client-401': [['AUTH-TOKEN-BAD-CLIENT-ID'], { status: 401 }],
  'malformed-scope-accepted': [['AUTH-TOKEN-BAD-SCOPE'], { status: 200 }],
  'missing-scope-accepted': [['AUTH-TOKEN-MISSING-FIELD'], { status: 200 }],
  'forbidden-as-401': [['AUTH-FORBIDDEN'], { status: 401 }],
  'missing-token-accepted': [['AUTH-BEARER-MISSING'], { status: 200 }],
  'truncated-token-accepted': [['AUTH-BEARER-TRUNCATED'], { status: 200 }],
  'altered-token-accepted': [['AUTH-BEARER-ALTERED'], { status: 200 }],
  // Served once the token's lifetime has passed: the command waits it out as the check did.
  'expired-token-accepted': [['AUTH-TOKEN-EXPIRY'], { status: 200 }],
  // Refused on its second use: the command uses it twice as the check did.
  'token-single-use': [['AUTH-TOKEN-REUSE'], { status: 401 }],
};

/** Each fault whose FAIL is a limit's (replayed), the checks or tags to run (one bucket where all break alike). */
export const REPLAYED: Partial<Record<FaultName, readonly string[]>> = {
  'retry-after-missing': ['rules-execute'],
  'retry-after-http-date': ['observability'],
  'retry-after-fractional': ['observability'],
  'retry-after-too-short': ['LIMIT-RETRY-HONOURED-RULES-SCHEDULE', 'LIMIT-RETRY-AFTER-RULES-SCHEDULE'],
  'limited-as-503': ['rules-execute'],
  'limited-503-one-in-ten': ['rules-execute'],
  'limit-per-client': ['rules-schedule'],
  'limit-shared-across-tenants': ['rules-schedule'],
  'observability-separate-buckets': ['observability'],
  'limit-blocks-tenant': ['LIMIT-BUCKETS-INDEPENDENT'],
  'limit-per-path-id': ['batch-status'],
  'observability-shared-across-tenants': ['LIMIT-TENANT-ISOLATED-OBSERVABILITY'],
  'post-limits-per-client': ['LIMIT-TENANT-SHARED-BATCH-UPLOAD-URL'],
  'rules-status-per-execution-id': ['LIMIT-PATH-ID-SHARED-RULES-STATUS'],
  'wrong-limit-execute': ['rules-execute'],
  'wrong-limit-transaction': ['transaction-event'],
  'no-limit-schedule': ['rules-schedule'],
  'limit-penalty-box': ['rules-schedule'],
  'limit-window-short': ['rules-execute'],
  'limit-early-reset': ['rules-execute'],
  'limit-fail-open-slice': ['rules-execute'],
  'limit-racy-counter': ['rules-execute'],
  'observability-split': ['observability'],
  'limit-first-window-low': ['batch-upload-url'],
  'limit-counts-refused': ['rules-execute'],
  'limit-window-long': ['LIMIT-ADMITS-RULES-EXECUTE'],
  'retry-after-short-late': ['rules-execute'],
  'issued-ids-unknown': ['batch-status'],
};

/** Faults that make a check WARN or leave it undecided, never FAIL: nothing of theirs to reproduce as a FAIL. */
export const NO_FAIL: readonly FaultName[] = [
  'unsupported-grant-401',
  'missing-secret-401',
  'no-cache-control',
  'no-www-authenticate',
  'retry-after-too-long',
  'limit-queues',
  'limited-503-once-bare',
  'retry-after-rounded-down',
  'ratelimit-policy-contradicts',
  'ratelimit-remaining-stuck',
  'ratelimit-reset-early',
  'ratelimit-reset-after-retry',
];
