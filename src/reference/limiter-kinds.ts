// The rate-limiting algorithms real gateways run (docs/conformance.md, "The reference server"), each allowing `count`
// requests per window of `ms`. SPEC.md §8 says "N requests / window" and names no algorithm, so the reference server
// can run any of them, and harness's checks must read every one right.
//
// Each key's state answers admit(now): 0 when the request is admitted (and counted), otherwise the milliseconds
// until it would be, computed by the same expression its next admit() compares with zero, so waiting that long
// (rounded up to whole seconds for Retry-After) always reaches capacity. Refused requests are not counted.

export const LIMITER_KINDS = ['anchored', 'aligned', 'sliding-log', 'token-bucket'] as const;
export type LimiterKind = (typeof LIMITER_KINDS)[number];

export const isLimiterKind = (value: string): value is LimiterKind =>
  (LIMITER_KINDS as readonly string[]).includes(value);

export interface LimitState {
  /** 0 when admitted, otherwise the milliseconds until capacity returns (always > 0). */
  admit(now: number): number;
  /**
   * What is left at `now` without spending any: requests admitted from now on, and the milliseconds until one more
   * comes back (0 when none is spent). What the RateLimit header fields report; absent where a fault's state keeps
   * no such count.
   */
  left?(now: number): Left;
}

export interface Left {
  readonly remaining: number;
  readonly resetMs: number;
}

/**
 * Fixed windows admitting `count` each. Anchored: a window opens at the first request after the previous one ended
 * (@fastify/rate-limit). Aligned: windows are [k·ms, (k+1)·ms) of the clock (Kong, Redis INCR+EXPIRE). Either
 * admits up to 2·count across an edge.
 */
class FixedWindow implements LimitState {
  private end = Number.NEGATIVE_INFINITY;
  private used = 0;
  constructor(
    private readonly count: number,
    private readonly ms: number,
    private readonly aligned: boolean,
  ) {}

  admit(now: number): number {
    if (now >= this.end) {
      this.end = this.aligned ? (Math.floor(now / this.ms) + 1) * this.ms : now + this.ms;
      this.used = 0;
    }
    if (this.used < this.count) {
      this.used++;
      return 0;
    }
    return this.end - now;
  }

  left(now: number): Left {
    return now >= this.end || this.used === 0
      ? { remaining: this.count, resetMs: 0 }
      : { remaining: this.count - this.used, resetMs: this.end - now };
  }
}

/**
 * Admits at t while fewer than `count` admitted requests lie in (t − ms, t]: never more than `count` in any window.
 * A ring of the last `count` admissions, each stored as the time it leaves the window; the slot to overwrite next
 * holds the oldest, and only it decides. `logsRefused` (the limit-counts-refused fault) logs refused requests too,
 * as a naive ZADD-then-ZCARD limiter does, and then answers the wait until the oldest of those left goes.
 */
export class SlidingLog implements LimitState {
  private readonly leavesAt: Float64Array;
  private oldest = 0;
  constructor(
    count: number,
    private readonly ms: number,
    private readonly logsRefused = false,
  ) {
    this.leavesAt = new Float64Array(count).fill(Number.NEGATIVE_INFINITY);
  }

  admit(now: number): number {
    const wait = this.leavesAt[this.oldest]! - now;
    if (wait > 0 && !this.logsRefused) return wait;
    this.leavesAt[this.oldest] = now + this.ms;
    this.oldest = this.oldest + 1 === this.leavesAt.length ? 0 : this.oldest + 1;
    return wait > 0 ? Math.max(1, this.leavesAt[this.oldest]! - now) : 0;
  }

  left(now: number): Left {
    const inWindow = this.leavesAt.filter((leaves) => leaves > now);
    return {
      remaining: this.leavesAt.length - inWindow.length,
      resetMs: inWindow.length === 0 ? 0 : Math.min(...inWindow) - now,
    };
  }
}

/**
 * Capacity `count`, refilled continuously at `count` per `ms`, starting full (AWS API Gateway, Envoy, nginx
 * limit_req). Kept as GCRA: `fullAt` is when the bucket would be full again, and a request needs one token, i.e.
 * fullAt − now ≤ ms − interval. Times instead of fractional token counts keep the arithmetic exact.
 */
class TokenBucket implements LimitState {
  private fullAt = Number.NEGATIVE_INFINITY;
  /** Milliseconds per token. */
  private readonly interval: number;
  /** How far ahead of now `fullAt` may be while one token is left. */
  private readonly slack: number;
  constructor(count: number, ms: number) {
    this.interval = ms / count;
    this.slack = ms - this.interval;
  }

  admit(now: number): number {
    const wait = this.fullAt - this.slack - now;
    // A window that does not divide by the count (2000 ms / 120) leaves rounding in fullAt: the Nth of a burst
    // must not be refused for it.
    if (wait > ROUNDING_MS) return wait;
    this.fullAt = Math.max(this.fullAt, now) + this.interval;
    return 0;
  }

  left(now: number): Left {
    const spent = Math.max(0, this.fullAt - now);
    if (spent === 0)
      return { remaining: Math.round((this.slack + this.interval) / this.interval), resetMs: 0 };
    const tokens = (this.slack + this.interval - spent) / this.interval;
    const whole = Math.floor(tokens + ROUNDING_MS / this.interval);
    return { remaining: Math.max(0, whole), resetMs: (whole + 1 - tokens) * this.interval };
  }
}

/**
 * Far below what a client can see, above the rounding of adding a fractional interval to an epoch-ms clock (a
 * quarter of a microsecond a time) a thousand times.
 */
const ROUNDING_MS = 0.5;

const UNLIMITED: LimitState = { admit: () => 0 };

/** A fresh state for one key; `count` Infinity never limits (the no-limit-schedule fault). */
export const createLimitState = (kind: LimiterKind, count: number, ms: number): LimitState => {
  if (count === Number.POSITIVE_INFINITY) return UNLIMITED;
  switch (kind) {
    case 'anchored':
      return new FixedWindow(count, ms, false);
    case 'aligned':
      return new FixedWindow(count, ms, true);
    case 'sliding-log':
      return new SlidingLog(count, ms);
    case 'token-bucket':
      return new TokenBucket(count, ms);
  }
};
