// One measurement per bucket, shared by every limit check of that bucket (SPEC.md §8): spend the whole limit in one
// window, then send the request that must be refused, then the variants that must (or must not) share the bucket,
// then wait out Retry-After and try once more. Checks grade these observations; the probe itself judges nothing.
import { type Exchange, TokenError } from '../client/index.ts';
import { type BucketId, type EndpointSpec, RETRY_AFTER_PATTERN } from '../spec/index.ts';
import type { CheckContext } from './context.ts';
import { skip } from './grades.ts';
import type { CallOptions, Session } from './session.ts';
import type { BucketLimit } from './target.ts';

/** A request sent once the bucket is spent, and what it says about sharing. */
export interface Variant {
  readonly name: string;
  readonly endpoint: EndpointSpec;
  /** Resolved before the bucket is spent, so the variant goes out while the bucket is still spent. */
  readonly options: (session: Session) => Promise<CallOptions>;
}

export interface Attempt {
  /** When this attempt's window began (epoch ms): the admitted opener, or the attempt's first request. */
  readonly windowStart: number;
  /** Admitted (not 429) among the limit's worth of requests. */
  readonly admitted: number;
  /** Refused for the token (401/403) even after a refresh: such answers say nothing about the limit. */
  readonly unauthorised: number;
  /** 1-based position of the first 429 among them, in the order answered. */
  readonly firstLimitedAt: number | undefined;
  readonly durationMs: number;
  readonly firstLimited?: Exchange;
}

export interface ProbeResult {
  readonly limit: BucketLimit;
  /** The first request, sent alone to find out whether the bucket was fresh. */
  readonly opener: Exchange;
  readonly attempts: readonly Attempt[];
  /** The first answer other than 429 of each endpoint (routing checks read it). */
  readonly firstByEndpoint: ReadonlyMap<string, Exchange>;
  /** The request past the limit, on the same endpoint and ids as the rest. */
  readonly over?: Exchange;
  readonly variants: ReadonlyMap<string, Exchange>;
  /** The request sent after waiting out `over`'s Retry-After. */
  readonly retry?: Exchange;
  readonly retryWaitMs?: number;
  /** Set when the bucket was still limited by earlier traffic when the probe began. */
  readonly waitedForFreshBucket: boolean;
}

const MAX_CONCURRENCY = 64;
const MAX_ATTEMPTS = 2;

export const isLimited = (exchange: Exchange): boolean => exchange.status === 429;
export const isUnauthorised = (exchange: Exchange): boolean =>
  exchange.status === 401 || exchange.status === 403;

/** Epoch ms at which the request was sent. */
export const sentAt = (exchange: Exchange): number => Date.parse(exchange.evidence.startedAt);

/** Whole seconds, as SPEC.md §8 rule 2 requires; undefined for anything else. */
export const retryAfterSeconds = (exchange: Exchange): number | undefined => {
  const value = exchange.headers['retry-after']?.trim();
  return value !== undefined && RETRY_AFTER_PATTERN.test(value) ? Number(value) : undefined;
};

/** Slack for our own timing and the server's clock: a tenth of the window, at most the second FACTS suggests. */
export const retryToleranceMs = (limit: BucketLimit): number =>
  Math.min(1000, Math.max(100, limit.windowMs / 10));

/**
 * A clock-aligned fixed window would let a burst straddling its edge through twice; starting a burst early in the
 * window (right after the edge, for 1 s windows) keeps it whole for every kind of limiter.
 */
const alignToWindow = async (ctx: CheckContext, limit: BucketLimit): Promise<void> => {
  const needed = limit.windowMs <= 1000 ? 0.8 * limit.windowMs : Math.min(0.5 * limit.windowMs, 10_000);
  const remaining = limit.windowMs - (Date.now() % limit.windowMs);
  if (remaining < needed) await ctx.wait(remaining + 20, 'to start the burst at the start of a window');
};

/** Sends `count` calls, at most `concurrency` in flight, round-robin over `endpoints`; answers in completion order. */
const burst = async (
  session: Session,
  endpoints: readonly EndpointSpec[],
  options: CallOptions,
  count: number,
  onAnswer: (exchange: Exchange, endpoint: EndpointSpec) => void,
): Promise<void> => {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < count) {
      const endpoint = endpoints[next++ % endpoints.length]!;
      onAnswer(await session.call(endpoint, options), endpoint);
    }
  };
  await Promise.all(Array.from({ length: Math.min(MAX_CONCURRENCY, count) }, worker));
};

export interface ProbePlan {
  readonly bucket: BucketId;
  /** Endpoints the limit's worth of requests go to, round-robin (several only for the shared Observability bucket). */
  readonly endpoints: readonly EndpointSpec[];
  readonly options: CallOptions;
  readonly variants: readonly Variant[];
}

const waitForFreshBucket = async (
  ctx: CheckContext,
  limit: BucketLimit,
  limited: Exchange,
): Promise<void> => {
  const seconds = retryAfterSeconds(limited);
  const ms = seconds === undefined ? limit.windowMs : Math.min(seconds * 1000, limit.windowMs);
  await ctx.wait(
    ms + retryToleranceMs(limit),
    'for the bucket to be fresh (it was limited before the probe)',
  );
};

/** Sends `count` requests; `already` were admitted in this window before (the opener), and count as the first. */
const spend = async (
  ctx: CheckContext,
  plan: ProbePlan,
  count: number,
  already: number,
  windowStart: number,
  seen: Map<string, Exchange>,
) => {
  let firstLimited: Exchange | undefined;
  let admitted = already;
  let answered = already;
  let unauthorised = 0;
  let firstLimitedAt: number | undefined;
  const started = performance.now();
  await burst(ctx.session, plan.endpoints, plan.options, count, (exchange, endpoint) => {
    answered += 1;
    if (isLimited(exchange)) {
      if (firstLimited === undefined) {
        firstLimited = exchange;
        firstLimitedAt = answered;
      }
    } else if (isUnauthorised(exchange)) {
      unauthorised += 1;
    } else {
      if (!seen.has(endpoint.key)) seen.set(endpoint.key, exchange);
      admitted += 1;
      if (exchange.status >= 200 && exchange.status < 300)
        ctx.session.publishAdmitted(endpoint.key, exchange);
    }
  });
  const attempt: Attempt = {
    windowStart,
    admitted,
    unauthorised,
    firstLimitedAt,
    durationMs: performance.now() - started,
    ...(firstLimited === undefined ? {} : { firstLimited }),
  };
  return attempt;
};

export const probeBucket = (ctx: CheckContext, plan: ProbePlan): Promise<ProbeResult> =>
  ctx.session.once(`probe:${plan.bucket}`, async () => {
    const { session } = ctx;
    const limit = session.target.limitOf(plan.bucket);
    const home = plan.endpoints[0]!;
    try {
      for (const endpoint of plan.endpoints) {
        if (!session.target.mayCall(endpoint))
          skip(`side_effects in the profile forbids calling ${endpoint.key}`);
      }
      const variantOptions = await Promise.all(
        plan.variants.map((v) => v.options(session).catch(() => undefined)),
      );
      await alignToWindow(ctx, limit);
      // One request first: if earlier traffic (ours or the tenant's) left the bucket spent, wait for it.
      const opener = await session.call(home, plan.options);
      const seen = new Map<string, Exchange>();
      const waitedForFreshBucket = isLimited(opener);
      if (waitedForFreshBucket) {
        await waitForFreshBucket(ctx, limit, opener);
      } else {
        seen.set(home.key, opener);
        if (opener.status >= 200 && opener.status < 300) session.publishAdmitted(home.key, opener);
      }
      const attempts: Attempt[] = [];
      for (let i = 0; i < MAX_ATTEMPTS; i++) {
        if (i > 0) await waitForFreshBucket(ctx, limit, attempts[i - 1]!.firstLimited!);
        // The admitted opener is the first request of the first attempt's window.
        const already = i === 0 && !waitedForFreshBucket ? 1 : 0;
        const windowStart = already === 1 ? sentAt(opener) : Date.now();
        const attempt = await spend(ctx, plan, limit.count - already, already, windowStart, seen);
        attempts.push(attempt);
        if (attempt.firstLimitedAt === undefined) break;
      }
      for (const endpoint of plan.endpoints) session.probeDone(endpoint.key);
      const over = await session.call(home, { ...plan.options, label: `${home.key} (past the limit)` });
      const variants = new Map<string, Exchange>();
      if (isLimited(over)) {
        for (const [i, variant] of plan.variants.entries()) {
          const options = variantOptions[i];
          // A variant whose options could not be had (no second id) is left out; its check says why.
          if (options === undefined) continue;
          const exchange = await session.call(variant.endpoint, { ...options, label: variant.name });
          variants.set(variant.name, exchange);
        }
      }
      const result: ProbeResult = {
        limit,
        opener,
        attempts,
        firstByEndpoint: seen,
        over,
        variants,
        waitedForFreshBucket,
      };
      const seconds = retryAfterSeconds(over);
      if (!isLimited(over) || seconds === undefined) return result;
      const retryWaitMs = seconds * 1000 + retryToleranceMs(limit);
      await ctx.wait(retryWaitMs, `for Retry-After (${seconds} s) before retrying`);
      const retry = await session.call(home, { ...plan.options, label: `${home.key} (after Retry-After)` });
      return { ...result, retry, retryWaitMs };
    } catch (error) {
      if (error instanceof TokenError) skip(`no token to probe with: ${error.message}`);
      throw error;
    } finally {
      for (const endpoint of plan.endpoints) session.probeDone(endpoint.key);
    }
  });
