// SPEC.md §8 (Limits) and the 429 row of §7, checked for every bucket of the §8 table. The checks are generated from
// the spec data, one set per bucket, and all of a bucket's checks grade one shared probe (src/conformance/probe.ts).
import type { Exchange } from '../src/client/index.ts';
import type { CheckContext } from '../src/conformance/context.ts';
import { fail, inconclusive, skip, warn } from '../src/conformance/grades.ts';
import {
  isLimited,
  isUnauthorised,
  type ProbePlan,
  type ProbeResult,
  probeBucket,
  retryAfterSeconds,
  sentAt,
} from '../src/conformance/probe.ts';
import { loopFor } from '../src/conformance/repro.ts';
import type { Target } from '../src/conformance/target.ts';
import type { CheckDefinition, PlanItem } from '../src/conformance/types.ts';
import { BUCKETS, type Bucket, type BucketId, ERROR_STATUSES } from '../src/spec/index.ts';
import { probeVariants } from './sharing.ts';

export const bucketTag = (bucket: BucketId): string => bucket.toUpperCase();

export const probePlan = (target: Target, bucket: BucketId): ProbePlan => ({
  bucket,
  endpoints: target.endpointsIn(bucket),
  options: {},
  variants: probeVariants(target, bucket),
});

/**
 * A bucket's probe, per endpoint: its share of the limit (round-robin), and on the first endpoint the opener, the
 * request past the limit, the variants and the retry. The margin is a repeat of the limit when outside traffic hit.
 */
export const probeRequests = (target: Target, bucket: BucketId): PlanItem[] => {
  const { count } = target.limitOf(bucket);
  const endpoints = target.endpointsIn(bucket);
  const share = Math.ceil(count / Math.max(1, endpoints.length));
  const extra = 1 + 1 + probeVariants(target, bucket).length + 1;
  return endpoints.map((endpoint, i) => ({
    key: `probe:${bucket}:${endpoint.key}`,
    endpoint: endpoint.key,
    requests: share + (i === 0 ? extra : 0),
    margin: share + 1,
  }));
};

/** The bucket's probe; the check shows the opener as evidence and a loop that replays the probe as repro. */
export const probe = async (ctx: CheckContext, bucket: BucketId): Promise<ProbeResult> => {
  const result = await probeBucket(ctx, probePlan(ctx.target, bucket));
  ctx.record(result.opener);
  const unauthorised = result.attempts.reduce((sum, a) => sum + a.unauthorised, 0);
  if (unauthorised > 0) {
    skip(
      `${unauthorised} probe requests got 401/403 even after a token refresh, so the limit could not be measured (see AUTH-TOKEN-REUSE)`,
    );
  }
  ctx.repro = loopFor(result.opener.evidence, result.limit.count + 1, ctx.target.profile);
  return result;
};

const describeLimit = (result: ProbeResult): string =>
  `${result.limit.count} per ${result.limit.per} (${result.limit.windowMs} ms window)`;

/** An answer refused for its token (after a refresh) says nothing about the limit. */
export const authorised = (exchange: Exchange): Exchange =>
  isUnauthorised(exchange)
    ? skip(
        `${exchange.evidence.label ?? 'a probe request'} got ${exchange.status} even after a token refresh (see AUTH-TOKEN-REUSE)`,
      )
    : exchange;

const overOrSkip = (ctx: CheckContext, result: ProbeResult) => {
  const over = result.over ?? skip('the probe sent no request past the limit');
  ctx.record(over);
  return authorised(over);
};

// "| <endpoint> | <n> requests / <unit> |": the whole limit must be usable within one window.
const admitsFullLimit = async (ctx: CheckContext, bucket: BucketId): Promise<string> => {
  const result = await probe(ctx, bucket);
  const [first, second] = result.attempts;
  const limit = result.limit.count;
  if (first === undefined) return skip('the probe made no attempt');
  for (const attempt of result.attempts) if (attempt.firstLimited) ctx.record(attempt.firstLimited);
  if (first.firstLimitedAt === undefined) {
    if (first.durationMs > result.limit.windowMs) {
      inconclusive(
        `sending ${limit} requests took ${Math.round(first.durationMs)} ms, longer than the window`,
      );
    }
    return `${limit} of ${limit} admitted within one window (${Math.round(first.durationMs)} ms)`;
  }
  if (second === undefined) return inconclusive('a 429 came early and the probe could not repeat');
  if (second.firstLimitedAt === undefined) {
    return `${limit} of ${limit} admitted on the second attempt (the first saw a 429 at request ${first.firstLimitedAt}: other traffic of the tenant shares the limit, §8 rule 1)`;
  }
  if (second.admitted === first.admitted) {
    return fail(
      `only ${first.admitted} of ${limit} admitted, twice in a row (SPEC.md: ${describeLimit(result)}); first 429 at request ${first.firstLimitedAt}`,
    );
  }
  return inconclusive(
    `429 before the limit in both attempts, at different counts (${first.admitted}, then ${second.admitted} of ${limit} admitted): other traffic of the tenant shares the limit (§8 rule 1)`,
  );
};

// §8 rule 2: "A request over the limit receives HTTP 429 with the `Retry-After` header (integer seconds)."
const refusesOverLimit = async (ctx: CheckContext, bucket: BucketId): Promise<string> => {
  const result = await probe(ctx, bucket);
  const over = overOrSkip(ctx, result);
  if (!isLimited(over)) {
    const attempt = result.attempts.at(-1)!;
    const elapsed = sentAt(over) - attempt.windowStart;
    if (elapsed > result.limit.windowMs) {
      return inconclusive(
        `request ${result.limit.count + 1} went out ${elapsed} ms after the window began, past its ${result.limit.windowMs} ms`,
      );
    }
    return fail(
      `request ${result.limit.count + 1} within one window (${elapsed} ms) got ${over.status}, not 429`,
    );
  }
  return `request ${result.limit.count + 1} got 429`;
};

const retryAfterWellFormed = async (ctx: CheckContext, bucket: BucketId): Promise<string> => {
  const result = await probe(ctx, bucket);
  const over = overOrSkip(ctx, result);
  if (!isLimited(over)) return skip(`no 429 to examine (see LIMIT-ENFORCED-${bucketTag(bucket)})`);
  const raw = over.headers['retry-after'];
  if (raw === undefined) return fail('the 429 carries no Retry-After header');
  const seconds = retryAfterSeconds(over);
  if (seconds === undefined) return fail(`Retry-After is '${raw}', not an integer number of seconds`);
  const windowSeconds = Math.ceil(result.limit.windowMs / 1000);
  // SPEC.md does not bound it; a wait longer than the window cannot be the time until capacity returns.
  if (seconds > windowSeconds)
    return warn(`Retry-After is ${seconds} s, longer than the ${windowSeconds} s window`);
  return `Retry-After: ${seconds} (window ${windowSeconds} s)`;
};

// §7: "giving the seconds to wait before retrying".
const retryAfterHonoured = async (ctx: CheckContext, bucket: BucketId): Promise<string> => {
  const result = await probe(ctx, bucket);
  const over = overOrSkip(ctx, result);
  if (!isLimited(over)) return skip(`no 429 to wait out (see LIMIT-ENFORCED-${bucketTag(bucket)})`);
  if (result.retry === undefined) {
    return skip(`no integer Retry-After to wait for (see LIMIT-RETRY-AFTER-${bucketTag(bucket)})`);
  }
  ctx.record(authorised(result.retry));
  const waited = Math.round(result.retryWaitMs ?? 0);
  if (isLimited(result.retry)) {
    return fail(
      `after waiting ${waited} ms (Retry-After ${over.headers['retry-after']} plus tolerance) the retry still got 429`,
    );
  }
  return `the retry after ${waited} ms got ${result.retry.status}`;
};

// §4: every endpoint in the table exists: with a valid token it answers neither 404 nor 405.
const routed = (ctx: CheckContext, bucket: BucketId, key: string) => async (): Promise<string> => {
  const result = await probe(ctx, bucket);
  const first = result.firstByEndpoint.get(key);
  if (first === undefined) return inconclusive(`${key} answered only 429 during the probe`);
  ctx.record(first);
  ctx.repro = undefined;
  if (first.status === 404 || first.status === 405)
    return fail(`${key} answered ${first.status} with a valid token`);
  return `${key} answered ${first.status}`;
};

const sentence = (bucket: BucketId): string => {
  const { limit, note } = BUCKETS[bucket] as Bucket;
  return `Limit ${limit.count} requests / ${limit.per}${note ? ` (${note})` : ''}.`;
};

export const limitChecks = (target: Target): CheckDefinition[] =>
  (Object.keys(BUCKETS) as BucketId[]).flatMap((bucket) => {
    const tag = bucketTag(bucket);
    const common = {
      tags: ['limits', bucket],
      lane: bucket,
      required: true,
      plan: (t: Target) => probeRequests(t, bucket),
    };
    const enforced: CheckDefinition =
      bucket === 'observability'
        ? {
            ...common,
            id: 'LIMIT-OBSERVABILITY-SHARED',
            title:
              'The Observability endpoints share one limit: the request past it is refused, whichever it hits',
            clause: '§8 table',
            quote:
              'All Observability API endpoints (one limit shared by all of them, not applied separately): 100 requests / minute',
            run: (ctx) => refusesOverLimit(ctx, bucket),
          }
        : {
            ...common,
            id: `LIMIT-ENFORCED-${tag}`,
            title: `The request past the ${bucket} limit gets 429`,
            clause: '§8 rule 2',
            quote:
              'A request over the limit receives HTTP 429 with the `Retry-After` header (integer seconds).',
            run: (ctx) => refusesOverLimit(ctx, bucket),
          };
    return [
      ...target.endpointsIn(bucket).map(
        (endpoint): CheckDefinition => ({
          ...common,
          tags: ['endpoints', bucket],
          id: `ENDPOINT-${endpoint.key
            .replace(/[^A-Za-z0-9]+/g, '-')
            .replace(/-+$/, '')
            .toUpperCase()}`,
          title: `${endpoint.key} exists: with a valid token it answers neither 404 nor 405`,
          clause: endpoint.clause,
          quote: `| ${endpoint.method} | ${endpoint.path} | ${endpoint.group} |`,
          run: (ctx) => routed(ctx, bucket, endpoint.key)(),
        }),
      ),
      {
        ...common,
        id: `LIMIT-ADMITS-${tag}`,
        title: `The whole ${bucket} limit is admitted within one window`,
        clause: '§8 table',
        quote: sentence(bucket),
        run: (ctx) => admitsFullLimit(ctx, bucket),
      },
      enforced,
      {
        ...common,
        id: `LIMIT-RETRY-AFTER-${tag}`,
        title: `A 429 from ${bucket} carries Retry-After as integer seconds, no longer than the window`,
        clause: '§8 rule 2',
        quote: ERROR_STATUSES.rateLimited.condition,
        run: (ctx) => retryAfterWellFormed(ctx, bucket),
      },
      {
        ...common,
        id: `LIMIT-RETRY-HONOURED-${tag}`,
        title: `After waiting Retry-After, ${bucket} admits a request again`,
        clause: '§7',
        quote: ERROR_STATUSES.rateLimited.condition,
        run: (ctx) => retryAfterHonoured(ctx, bucket),
      },
    ];
  });
