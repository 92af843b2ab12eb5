// A bucket's probe as the limit, sharing and limiter checks use it: what it sends (the plan), and the observations
// every check of the bucket grades. One module both limits.ts and sharing.ts read, so neither depends on the other.
import {
  type AdmittedOverLimit,
  type CheckContext,
  type Exchange,
  freshBurstSize,
  type LimitWindow,
  type LoggedRequest,
  limitTimeline,
  type ObservedRequest,
  type PlanItem,
  type ProbePlan,
  type ProbeResult,
  probeBucket,
  type RefusedBelowLimit,
  relativeTo,
  type Shown,
  skip,
  type Target,
  WINDOW_END_RETRIES,
} from '../src/runner/checks.ts';
import type { BucketId } from '../src/spec/index.ts';
import { probeVariants } from './sharing-rules.ts';

export const bucketTag = (bucket: BucketId): string => bucket.toUpperCase();

export const probePlan = (target: Target, bucket: BucketId): ProbePlan => ({
  bucket,
  endpoints: target.endpointsIn(bucket),
  options: {},
  variants: probeVariants(target, bucket),
});

/**
 * Edge polls (and one after the edge, and a few sent at once after a poll refused below the limit), and polls while
 * a Retry-After is waited out, at most (see probe.ts).
 */
const POLLS = 80 + 1 + 10;
const WAIT_POLLS = 12;
/**
 * The retry test (see probe-steps.ts): a 429 and the requests sent once its promise has passed and past a rounding,
 * tried until one shows what it can, by each filled window end and twice in the probe's own steps.
 */
const RETRY_TEST = 3 * (1 + WINDOW_END_RETRIES + 2);
/** One request after each burst refused below the limit, at most: the bursts a probe can send (see probe.ts). */
const ONCE_MORE = 8 + 3 * WINDOW_END_RETRIES;
/** A room-back request and the one at once after it, after the fresh burst and each filled window end. */
const ROOM_BACK = 2 * (1 + WINDOW_END_RETRIES);

/**
 * A bucket's probe, per endpoint: the spend burst round-robin (a limit plus one); on the first endpoint the fresh
 * burst (freshBurstSize), the window-end burst (plus one) and the variants, and the request after each burst refused
 * below the limit. The margin covers what runs only when needed:
 * twice the limit twice more when nothing was refused, a repeated fresh burst, more when it drew no 429, the edge and
 * wait polls, a limit's worth filling the window after the edge when the window end goes first, two bursts when
 * capacity came back early, a variant's limit's worth, twice over when it went late and
 * is sent again after a repeated fresh burst, the Retry-After test, and for each window-end burst sent again (it came
 * too late) a limit's worth to find a refusal, the edge and wait polls after it, a limit's worth after the edge and
 * the burst; the room-back requests, and where one is refused twice, the edge polls and a limit's worth after it.
 */
export const probeRequests = (target: Target, bucket: BucketId): PlanItem[] => {
  const limit = target.limitOf(bucket);
  const { count } = limit;
  const fresh = freshBurstSize(limit);
  const endpoints = target.endpointsIn(bucket);
  const share = (n: number) => Math.ceil(n / Math.max(1, endpoints.length));
  const variants = probeVariants(target, bucket);
  return endpoints.map((endpoint, i) => ({
    key: `probe:${bucket}:${endpoint.key}`,
    endpoint: endpoint.key,
    probe: true,
    requests: share(count + 1) + (i === 0 ? fresh + count + 1 + variants.length : 0),
    margin:
      share(2 * (2 * count + 1)) +
      share(count + 1) +
      share(POLLS + WAIT_POLLS) +
      share(count + 1) +
      share(POLLS + WAIT_POLLS + count + 1) +
      (i === 0
        ? fresh + 2 * (count + 1) + variants.length * (2 * count + 1) + RETRY_TEST + ONCE_MORE + ROOM_BACK
        : 0) +
      WINDOW_END_RETRIES * (2 * share(count + 1) + share(POLLS + WAIT_POLLS) + (i === 0 ? count + 1 : 0)),
  }));
};

/**
 * The bucket's probe; the check shows its first request as its first evidence, which the runner reproduces by hand
 * beside `harness replay` of the check. A bucket with no endpoints (Observability's come from the profile) never
 * gets here: the planner SKIPs its checks before the run (plan-skips.ts).
 */
export const probe = async (ctx: CheckContext, bucket: BucketId): Promise<ProbeResult> => {
  const result = await probeBucket(ctx, probePlan(ctx.target, bucket));
  const first = result.spend.requests.find((r) => r.exchange !== undefined)?.exchange;
  if (first !== undefined) {
    ctx.record(first);
  }
  if (result.unauthorised > 0) {
    skip(
      `${result.unauthorised} probe requests got 401/403 even after a token refresh, so the limit could not be measured (see AUTH-TOKEN-REUSE)`,
    );
  }
  return result;
};

/** Evidence times, from the probe's first request. */
export const timesOf = (result: ProbeResult) => relativeTo(result.origin);

/** The bucket as the tenant's limiter sees it now: everything harness sent it during the run. */
export const bucketView = (ctx: CheckContext, bucket: BucketId, result: ProbeResult) =>
  ctx.bucketView(bucket, { tenant: result.tenant });

/**
 * Records the exchanges behind an observation, so the report shows the requests the arithmetic names, each once and
 * reproduced with the token of the client that sent it (a sharing variant's).
 */
export const recordRequests = (ctx: CheckContext, requests: readonly (LoggedRequest | undefined)[]): void =>
  ctx.recordLogged(requests);

/**
 * A limit verdict's proof, shown: its timeline, for the verdict to carry (`fail(message, showProof(...))`), and as
 * evidence the exchanges its message cites, the 429 it turns on and the first and last two of the requests it counts.
 */
export const showProof = (
  ctx: CheckContext,
  log: readonly ObservedRequest[],
  limit: LimitWindow,
  origin: number,
  proof: RefusedBelowLimit | AdmittedOverLimit,
): Shown => {
  const { refusal, counts } = proof.stretch;
  const counted = log.filter(counts).sort((a, b) => a.sent - b.sent);
  const cited = log.find((o) => o.label === refusal?.label && o.sent === refusal.sent);
  recordRequests(
    ctx,
    [cited, ...counted.slice(0, 2), ...counted.slice(2).slice(-2)].map((o) => o?.request),
  );
  return { timeline: limitTimeline(log, limit, origin, proof) };
};

/** An answer refused for its token (after a refresh) says nothing about the limit. */
export const authorised = (exchange: Exchange): Exchange =>
  exchange.status === 401 || exchange.status === 403
    ? skip(
        `${exchange.evidence.label ?? 'a probe request'} got ${exchange.status} even after a token refresh (see AUTH-TOKEN-REUSE)`,
      )
    : exchange;
