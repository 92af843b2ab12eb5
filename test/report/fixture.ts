// A realistic run report with every grade, evidence with bodies, a §5 rule 4 refresh and a transport error, so each
// writer meets every shape the schema allows.
import type { Evidence } from '../../src/client/index.ts';
import { GRADES, type Grade } from '../../src/runner/grades.ts';
import type { LimitTimeline } from '../../src/runner/limit-timeline.ts';
import type { CheckResult, RunReport } from '../../src/runner/types.ts';

const BASE = 'https://api.example.test';
const AUTH = 'https://auth.example.test/oauth2/token';
const TOKEN = 'eyJh…(sha256:3f1c0d9a7b2e)';

const tokenExchange: Evidence = {
  label: 'token request as SPEC.md §5 rule 1 says',
  request: {
    method: 'POST',
    url: AUTH,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'grant_type=client_credentials&client_id=app-1&client_secret=[REDACTED]&scope=tenant%2Facme',
  },
  response: {
    status: 200,
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store' },
    body: `{"access_token":"${TOKEN}","expires_in":3600,"token_type":"bearer"}`,
  },
  startedAt: '2026-11-21T23:45:12.104Z',
  durationMs: 41.7,
};

const schedule = (status: number, headers: Record<string, string>, body?: string): Evidence => ({
  request: {
    method: 'GET',
    url: `${BASE}/api/rules/schedule`,
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
  },
  response: { status, headers, ...(body === undefined ? {} : { body }) },
  startedAt: '2026-11-21T23:45:13.002Z',
  durationMs: 12.3,
});

const refreshed: Evidence = {
  ...schedule(200, { 'content-type': 'application/json' }, '{"rules":[]}'),
  label: 'after the token lifetime',
  refresh: {
    rejected: schedule(401, { 'www-authenticate': 'Bearer error="invalid_token"' }),
    token: tokenExchange,
  },
};

const unreachable: Evidence = {
  label: 'rule rerun',
  request: { method: 'POST', url: `${BASE}/api/rules/rerun`, headers: {}, body: '{}' },
  startedAt: '2026-11-21T23:46:40.000Z',
  durationMs: 10_000,
  error: { kind: 'timeout', message: 'no response within 10000 ms' },
};

/** A burst of 121 sent within 30 ms of which only 100 were admitted: the 101st got 429 with 100 in the window. */
export const BURST_REFUSED_EARLY: LimitTimeline = {
  limit: { count: 120, windowMs: 60_000 },
  from: 25 - 60_000,
  until: 55,
  claim: 'under',
  counted: 100,
  bound: 120,
  requests: Array.from({ length: 121 }, (_, i) => ({
    sent: Math.round(i * 2.5) / 10,
    answered: Math.round(i * 2.5 + 300) / 10,
    status: i < 100 ? 200 : 429,
    counted: i < 100,
    ...(i === 100 ? { refusal: true } : {}),
  })),
};

const QUOTES: Record<string, string> = {
  '§5 rule 1':
    'The client obtains a token with POST to the token endpoint, sending grant_type, client_id, client_secret and scope as a form-encoded body.',
  '§2': 'token_type | string | Always `Bearer`',
  '§5 rule 4':
    'A token is valid for 3600 seconds. After that, API calls return 401; the client requests a new token with the same request.',
  '§4 table': 'POST | /api/rules/rerun | Rule Rerun API',
  '§7': '400 Bad Request | On the token request: wrong client_id, client_secret or scope format',
  '§8 table': 'GET /api/rules/schedule | 120 requests / minute',
  '§8 rule 2': 'A request over the limit receives HTTP 429 with the `Retry-After` header (integer seconds).',
  '§5 rule 6': 'A valid token whose client credentials lack permission for the resource gets 403.',
  '§9': 'The transaction submission path contains the version segment `v3` (/event/transaction/v3).',
};

const check = (
  id: string,
  grade: Grade,
  clause: `§${string}`,
  message: string,
  evidence: Evidence[] = [],
  repro: string[] = [],
): CheckResult => ({
  id,
  title: id.toLowerCase().replaceAll('-', ' '),
  clause,
  section: clause.split(' ')[0]!,
  quote: QUOTES[clause] ?? '',
  tags: ['fixture'],
  grade,
  message,
  startedAt: '2026-11-21T23:45:12.000Z',
  durationMs: 250,
  evidence,
  repro,
});

const curl = `curl -sS -X POST '${AUTH}' -d grant_type=client_credentials -d client_id=app-1 -d "client_secret=$CLIENT_SECRET"`;

export const FIXTURE_CHECKS: readonly CheckResult[] = [
  check('AUTH-TOKEN-FORM', 'PASS', '§5 rule 1', 'the SPEC.md token request got 200', [tokenExchange], [curl]),
  check(
    'AUTH-TOKEN-TYPE',
    'WARN',
    '§2',
    'token_type is "bearer", not "Bearer" (RFC 6749 says case-insensitive)',
    [tokenExchange],
  ),
  check('AUTH-TOKEN-EXPIRY', 'PASS', '§5 rule 4', 'after 3600 s the old token got 401 and a new one worked', [
    refreshed,
  ]),
  check('ENDPOINT-POST-API-RULES-RERUN', 'INCONCLUSIVE', '§4 table', 'the target did not answer in time', [
    unreachable,
  ]),
  check('ERROR-BAD-SCOPE', 'FAIL', '§7', 'a malformed scope got 500, not 400', [tokenExchange], [curl]),
  {
    ...check(
      'LIMIT-ADMITS-SCHEDULE',
      'FAIL',
      '§8 table',
      'only 100 of 120 requests were admitted in a minute',
      [schedule(429, { 'retry-after': '12' }, '{"error":"rate_limited"}')],
    ),
    timeline: BURST_REFUSED_EARLY,
  },
  check('LIMIT-RETRY-AFTER-SCHEDULE', 'PASS', '§8 rule 2', 'Retry-After: 12'),
  check('AUTH-FORBIDDEN', 'SKIP', '§5 rule 6', 'the profile has no clients.restricted'),
  check('VERSION-PATHS', 'INFO', '§9', 'only /event/transaction/v3 carries a version segment'),
  check(
    'AUTH-TOKEN-PAYLOAD',
    'PASS',
    '§4 token payload',
    'grant_type, client_id, client_secret and scope required',
  ),
];

export const reportOf = (checks: readonly CheckResult[]): RunReport => {
  const counts = Object.fromEntries(GRADES.map((g) => [g, checks.filter((c) => c.grade === g).length]));
  return {
    harness: { name: 'harness', version: '0.1.0' },
    specDigest: `sha256:${'0'.repeat(64)}`,
    target: { base_url: BASE, auth_url: AUTH, tenant: 'acme' },
    profileHash: 'a'.repeat(64),
    command: 'harness conformance --profile profiles/acme.yaml',
    certifiable: false,
    notCertifiable: ['AUTH-FORBIDDEN was skipped', 'the profile overrides the token lifetime'],
    unverified: checks.filter((c) => c.grade === 'INCONCLUSIVE').map((c) => c.id),
    startedAt: '2026-11-21T23:45:12.000Z',
    finishedAt: '2026-11-21T23:47:03.512Z',
    durationMs: 111_512,
    counts: counts as Record<Grade, number>,
    plan: [
      { key: 'token:3', endpoint: 'POST {auth_url}', requests: 3, margin: 0 },
      { key: 'probe:GET /api/rules/schedule', endpoint: 'GET /api/rules/schedule', requests: 121, margin: 2 },
    ],
    sent: { 'POST {auth_url}': 4, 'GET /api/rules/schedule': 122, 'POST /api/rules/rerun': 1 },
    checks,
  };
};

export const FIXTURE: RunReport = reportOf(FIXTURE_CHECKS);
