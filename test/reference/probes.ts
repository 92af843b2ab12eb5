// One probe per fault: each tells whether the rule that fault breaks holds on a server. A faithful server passes
// them all; a server with fault F fails exactly the probe of F (checked in faults.test.ts). Probes look at their
// own rule only and get by under every other fault (see TestServer.tokenAttempt and TestServer.token).
import { setTimeout as sleep } from 'node:timers/promises';
import { alterToken } from '../../conformance/alter-token.ts';
import type { FaultName } from '../../src/reference/index.ts';
import type { BucketId, Limit } from '../../src/spec/index.ts';
import type { Reply, TestServer } from './helpers.ts';
import { RATELIMIT_PROBES } from './ratelimit-probes.ts';

export type Probe = (t: TestServer) => Promise<boolean>;

/** Small limits, so probes need few requests; per-minute ones on the default 60 s minute of the fake clock. */
export const PROBE_LIMITS: Partial<Record<BucketId, Limit>> = {
  'transaction-event': { count: 10, per: 'second' },
  'rules-execute': { count: 6, per: 'minute' },
  'rules-schedule': { count: 4, per: 'minute' },
  'batch-status': { count: 4, per: 'minute' },
  'batch-upload-url': { count: 4, per: 'minute' },
  observability: { count: 4, per: 'minute' },
  'rules-status': { count: 4, per: 'minute' },
};

/** Real time past which an answer counts as held: far beyond a loopback round trip on a loaded runner. */
const HELD_MS = 1000;

const TX = 'POST /event/transaction/v3';
const RERUN = 'POST /api/rules/rerun';
const UPLOAD = 'POST /api/transactions/batch/generate-upload-url';
const STATUS = 'GET /api/transactions/batch/status/{batch_id}';
const RULE_STATUS = 'GET /api/rules/status/{execution_id}';

/** 404 is an answer from the endpoint (an unknown id), so the limiter let the request through. */
const admitted = (status: number): boolean => status < 300 || status === 404;
const limitOf = (t: TestServer, bucket: BucketId): number => t.server.options.limits[bucket].count;

const token = async (t: TestServer) => (await t.tokenAttempt(t.fields())).json;
const tokenError = async (t: TestServer, change: Record<string, string>): Promise<Reply> =>
  t.tokenAttempt({ ...t.fields(), ...change });

const without = (fields: Record<string, string>, name: string): Record<string, string> =>
  Object.fromEntries(Object.entries(fields).filter(([key]) => key !== name));

/** A refusal by the limiter: rules/rerun admits one call per minute. */
const refused = async (t: TestServer): Promise<Reply> => {
  await t.call(RERUN);
  return t.call(RERUN);
};
const retryAfter = async (t: TestServer): Promise<string | undefined> => {
  const value = (await refused(t)).headers['retry-after'];
  return Array.isArray(value) ? value[0] : value;
};

/** Exactly the configured count is admitted in one window. */
const exactLimit =
  (key: Parameters<TestServer['call']>[0], bucket: BucketId): Probe =>
  async (t) =>
    (await t.burst(limitOf(t, bucket) + 3, key)).filter(admitted).length === limitOf(t, bucket);

const secondsOf = (reply: Reply): number | undefined => {
  const value = reply.headers['retry-after'];
  return typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : undefined;
};

interface Sent {
  readonly at: number;
  readonly status: number;
}

/** Bound (U): after a refusal at t, at most the limit admitted in (t, t + W], whatever the limiter's kind. */
const admitsAtMostLimitAfterRefusals = (log: readonly Sent[], limit: number, windowMs: number): boolean =>
  log.every(
    (r) =>
      r.status !== 429 ||
      log.filter((o) => admitted(o.status) && o.at > r.at && o.at <= r.at + windowMs).length <= limit,
  );

/**
 * Bound (U) from a refusal just before the edge Retry-After pointed at, and from the spending burst: requests at that
 * edge and just before a window has passed. Retry-After is followed, so a limiter that resets early behind a
 * faithful Retry-After is limit-early-reset's to find, not this probe's.
 */
const windowAfterEdge: Probe = async (t) => {
  const limit = limitOf(t, 'batch-upload-url');
  const { minuteMs } = t.server.options;
  const log: Sent[] = [];
  const send = async (n: number) => {
    const at = t.clock.now();
    for (const status of await t.burst(n, UPLOAD)) log.push({ at, status });
  };
  const start = t.clock.now();
  await send(limit + 2);
  const seconds = secondsOf(await t.call(UPLOAD));
  if (seconds === undefined) return true;
  const edge = start + seconds * 1000;
  const checkpoints = [
    [edge - 1, 1],
    [edge, limit + 1],
    [start + minuteMs - 1, limit + 1],
    [edge + minuteMs - 3, limit + 1],
  ].sort(([a], [b]) => a! - b!);
  for (const [at, n] of checkpoints) {
    if (at! > t.clock.now()) t.clock.advance(at! - t.clock.now());
    if (at! === t.clock.now()) await send(n!);
  }
  return admitsAtMostLimitAfterRefusals(log, limit, minuteMs);
};

/**
 * Bound (L): a refusal needs the limit admitted in the window before it. After the tenant's first window (which
 * limit-first-window-low spoils), a window's worth admitted, half a window of refused requests, then a request a
 * window after the first.
 */
const refusedOnlyWhenSpent: Probe = async (t) => {
  const limit = limitOf(t, 'batch-upload-url');
  const { minuteMs } = t.server.options;
  await t.call(UPLOAD);
  t.clock.advance(minuteMs + 1);
  const log: { at: number; status: number }[] = [];
  const send = async (n: number) => {
    const at = t.clock.now();
    for (const status of await t.burst(n, UPLOAD)) log.push({ at, status });
  };
  await send(limit);
  t.clock.advance(minuteMs / 2);
  await send(limit);
  t.clock.advance(minuteMs / 2 + 1);
  await send(1);
  return log.every(
    (r) =>
      admitted(r.status) ||
      log.filter((o) => admitted(o.status) && o.at > r.at - minuteMs && o.at <= r.at).length >= limit,
  );
};

/**
 * A 429 late in its window says the wait honestly too (limit-short-late breaks only that part). Judged only where
 * the window's first 429 says the whole window (retry-after-too-short and shorter windows are other faults').
 */
const retryAfterLate: Probe = async (t) => {
  const { minuteMs } = t.server.options;
  await t.call(RERUN);
  const first = secondsOf(await t.call(RERUN));
  if (first === undefined || first * 1000 < minuteMs) return true;
  t.clock.advance((minuteMs * 11) / 12);
  const late = await t.call(RERUN);
  const seconds = secondsOf(late);
  if (late.status !== 429 || seconds === undefined) return true;
  t.clock.advance(seconds * 1000);
  return admitted((await t.call(RERUN)).status);
};

export const PROBES: Record<FaultName, Probe> = {
  'token-type-lowercase': async (t) => (await token(t)).token_type === 'Bearer',
  'expires-in-wrong': async (t) =>
    Number((await token(t)).expires_in) === t.server.options.tokenLifetimeSeconds,
  'expires-in-string': async (t) => Number.isInteger((await token(t)).expires_in),
  'token-json-only': async (t) => (await t.tokenReply(t.fields())).status === 200,
  'grant-type-unchecked': async (t) =>
    (await tokenError(t, { grant_type: 'password' })).json.error === 'unsupported_grant_type',
  'wrong-secret-401': async (t) => {
    const answer = await tokenError(t, { client_secret: 'wrong' });
    return answer.status === 400 && answer.json.error === 'invalid_client';
  },
  'malformed-scope-accepted': async (t) => (await tokenError(t, { scope: 'acme' })).status === 400,
  'unknown-client-401': async (t) => (await tokenError(t, { client_id: 'nobody' })).status !== 401,
  'missing-scope-accepted': async (t) => (await t.tokenAttempt(without(t.fields(), 'scope'))).status === 400,
  'missing-secret-401': async (t) =>
    (await t.tokenAttempt(without(t.fields(), 'client_secret'))).status !== 401,
  'unsupported-grant-401': async (t) => (await tokenError(t, { grant_type: 'password' })).status !== 401,
  'no-cache-control': async (t) => (await t.tokenAttempt(t.fields())).headers['cache-control'] === 'no-store',
  'retry-after-missing': async (t) => (await retryAfter(t)) !== undefined,
  'retry-after-http-date': async (t) => !(await retryAfter(t))?.endsWith('GMT'),
  'retry-after-fractional': async (t) => !(await retryAfter(t))?.includes('.'),
  'retry-after-too-short': async (t) => {
    const value = await retryAfter(t);
    if (value === undefined || !/^\d+$/.test(value)) return true;
    t.clock.advance(Number(value) * 1000);
    return admitted((await t.call(RERUN)).status);
  },
  // Refused half a second into the window: waited out to the millisecond, the Retry-After reaches capacity, which
  // a rounding down shows by coming back within the second after it (a value shorter still is another fault's).
  'retry-after-rounded-down': async (t) => {
    await t.call(RERUN);
    t.clock.advance(500);
    const value = (await t.call(RERUN)).headers['retry-after'];
    if (typeof value !== 'string' || !/^\d+$/.test(value)) return true;
    t.clock.advance(Number(value) * 1000);
    if (admitted((await t.call(RERUN)).status)) return true;
    t.clock.advance(1000);
    return !admitted((await t.call(RERUN)).status);
  },
  'retry-after-too-long': async (t) => {
    const value = await retryAfter(t);
    return value === undefined || !/^\d+$/.test(value) || Number(value) <= 60;
  },
  'limited-as-503': async (t) => (await refused(t)).status === 429,
  // Ten refusals in a row: never 429s mixed with another status that carries the Retry-After.
  'limited-503-one-in-ten': async (t) => {
    await t.call(RERUN);
    const answers = [];
    for (let i = 0; i < 10; i++) answers.push(await t.call(RERUN));
    const other = answers.filter((a) => a.status !== 429 && a.headers['retry-after'] !== undefined);
    return !(answers.some((a) => a.status === 429) && other.length > 0);
  },
  // The second refusal is a 429 with its Retry-After.
  'limited-503-once-bare': async (t) => {
    await refused(t);
    const second = await t.call(RERUN);
    return second.status !== 503 || second.headers['retry-after'] !== undefined;
  },
  // On a GET bucket: post-limits-per-client breaks the rule on the POST buckets only.
  'limit-per-client': async (t) => {
    await t.burst(limitOf(t, 'batch-status'), STATUS, { role: 'primary' });
    return !admitted((await t.call(STATUS, { role: 'same_tenant' })).status);
  },
  'post-limits-per-client': async (t) => {
    await t.burst(limitOf(t, 'batch-upload-url'), UPLOAD, { role: 'primary' });
    return !admitted((await t.call(UPLOAD, { role: 'same_tenant' })).status);
  },
  'limit-shared-across-tenants': async (t) => {
    await t.burst(limitOf(t, 'batch-upload-url'), UPLOAD, { role: 'primary' });
    return admitted((await t.call(UPLOAD, { role: 'other_tenant' })).status);
  },
  'observability-shared-across-tenants': async (t) => {
    const [first] = t.server.options.observability;
    await t.burst(limitOf(t, 'observability'), first!, { role: 'primary' });
    return admitted((await t.call(first!, { role: 'other_tenant' })).status);
  },
  // Spent round-robin, the shared limit refuses every endpoint (a limit split in shares is spent too).
  'observability-separate-buckets': async (t) => {
    const endpoints = t.server.options.observability;
    for (let i = 0; i < limitOf(t, 'observability'); i++) await t.call(endpoints[i % endpoints.length]!);
    const answers = await Promise.all(endpoints.map((key) => t.call(key)));
    return answers.every((answer) => !admitted(answer.status));
  },
  // One endpoint alone gets the whole shared limit.
  'observability-split': async (t) => {
    const [first] = t.server.options.observability;
    const statuses = await t.burst(limitOf(t, 'observability'), first!);
    return statuses.every(admitted);
  },
  'limit-window-short': windowAfterEdge,
  'limit-early-reset': async (t) => {
    const log: Sent[] = [];
    for (let i = 0; i < 3; i++) {
      if (i > 0) t.clock.advance(t.server.options.minuteMs / 3);
      const at = t.clock.now();
      for (const status of await t.burst(limitOf(t, 'batch-upload-url') + 1, UPLOAD))
        log.push({ at, status });
    }
    return admitsAtMostLimitAfterRefusals(log, limitOf(t, 'batch-upload-url'), t.server.options.minuteMs);
  },
  'limit-first-window-low': exactLimit(UPLOAD, 'batch-upload-url'),
  // Spent, then a limit's worth again a quarter of the way into the window, where the fault admits all.
  'limit-fail-open-slice': async (t) => {
    const log: Sent[] = [];
    const count = limitOf(t, 'batch-upload-url');
    for (const step of [0, 0.24]) {
      t.clock.advance(t.server.options.minuteMs * step);
      const at = t.clock.now();
      for (const status of await t.burst(count + 1, UPLOAD)) log.push({ at, status });
    }
    return admitsAtMostLimitAfterRefusals(log, count, t.server.options.minuteMs);
  },
  // On a clock that stands still no admit is ever counted: a burst past the limit is admitted whole.
  'limit-racy-counter': async (t) =>
    (await t.burst(limitOf(t, 'batch-upload-url') + 3, UPLOAD)).filter(admitted).length <=
    limitOf(t, 'batch-upload-url'),
  'limit-counts-refused': refusedOnlyWhenSpent,
  'retry-after-short-late': retryAfterLate,
  // A request over the limit is answered at once (429, or what another fault answers), not held: the fake clock
  // stands still, so a held one would wait for ever; moving it a window on lets the server close.
  'limit-queues': async (t) => {
    const over = t.burst(limitOf(t, 'rules-status') + 1, RULE_STATUS, { id: 'any' });
    const answer = await Promise.race([over, sleep(HELD_MS).then(() => undefined)]);
    if (answer === undefined) t.clock.advance(t.server.options.minuteMs + 1);
    return answer !== undefined;
  },
  'limit-blocks-tenant': async (t) => {
    await refused(t);
    return admitted((await t.call(TX)).status);
  },
  'limit-per-path-id': async (t) => {
    await t.burst(limitOf(t, 'batch-status'), STATUS, { id: 'one' });
    return !admitted((await t.call(STATUS, { id: 'two' })).status);
  },
  // Held (limit-queues) is not admitted either: the clock is moved a window on so the held request ends.
  'rules-status-per-execution-id': async (t) => {
    await t.burst(limitOf(t, 'rules-status'), RULE_STATUS, { id: 'one' });
    const other = t.call(RULE_STATUS, { id: 'two' });
    const answer = await Promise.race([other, sleep(HELD_MS).then(() => undefined)]);
    if (answer !== undefined) return !admitted(answer.status);
    t.clock.advance(t.server.options.minuteMs + 1);
    await other;
    return true;
  },
  'wrong-limit-execute': exactLimit('POST /api/rules/execute', 'rules-execute'),
  'wrong-limit-transaction': exactLimit(TX, 'transaction-event'),
  'no-limit-schedule': exactLimit('GET /api/rules/schedule', 'rules-schedule'),
  // A window after the limit was spent, with nothing sent meanwhile, capacity is back.
  // Back a window after the refusal, or (a window longer than stated is another fault's) a quarter window later.
  'limit-penalty-box': async (t) => {
    await t.burst(limitOf(t, 'rules-schedule') + 1, 'GET /api/rules/schedule');
    t.clock.advance(t.server.options.minuteMs + 1);
    if (admitted((await t.call('GET /api/rules/schedule')).status)) return true;
    t.clock.advance(t.server.options.minuteMs / 4);
    return admitted((await t.call('GET /api/rules/schedule')).status);
  },
  // Spent without a refusal: back once the stated window has passed.
  'limit-window-long': async (t) => {
    await t.burst(limitOf(t, 'rules-execute'), 'POST /api/rules/execute');
    t.clock.advance(t.server.options.minuteMs + 1);
    return admitted((await t.call('POST /api/rules/execute')).status);
  },
  'issued-ids-unknown': async (t) => {
    const { batch_id: id } = (await t.call(UPLOAD)).json as { batch_id: string };
    return (await t.call(STATUS, { id })).status === 200;
  },
  'forbidden-as-401': async (t) => (await t.call(RERUN, { role: 'restricted' })).status === 403,
  'missing-token-accepted': async (t) => (await t.call(TX, { token: null })).status === 401,
  'truncated-token-accepted': async (t) => {
    const full = await t.newToken();
    return (await t.call(TX, { token: full.slice(0, 20) })).status === 401;
  },
  'altered-token-accepted': async (t) => {
    const full = await t.newToken();
    return (await t.call(TX, { token: alterToken(full)!.token })).status === 401;
  },
  // An unknown token rather than none: the missing-token-accepted fault serves a request without one.
  'no-www-authenticate': async (t) =>
    /^Bearer\b/.test(String((await t.call(TX, { token: 'bad-token' })).headers['www-authenticate'])),
  'expired-token-accepted': async (t) => {
    const full = await t.newToken();
    t.clock.advance(t.server.options.tokenLifetimeSeconds * 1000);
    return (await t.call(TX, { token: full })).status === 401;
  },
  'token-single-use': async (t) => {
    const full = await t.newToken();
    const first = await t.call(TX, { token: full });
    const second = await t.call(TX, { token: full });
    return first.status === 202 && second.status === 202;
  },
  ...RATELIMIT_PROBES,
};
