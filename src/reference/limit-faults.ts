// Limiters that break one property of SPEC.md §8 and look faithful otherwise: each is the reference server's
// stand-in for a misconfigured gateway, most in a way a one-window probe cannot see (issue 21). They wrap the
// algorithms of limiter-kinds.ts, so every kind can carry each fault; faults.ts says which fault runs which.
import type { KeptState } from './behaviour.ts';
import type { LimiterKind, LimitState } from './limiter-kinds.ts';

/**
 * Refuses on a short window but answers with the wait a faithful window of `windowMs` would give, aligned or
 * anchored at the first request as `kind` is: a client that trusts Retry-After never sees the early resets.
 */
export const earlyReset = (inner: LimitState, windowMs: number, kind: LimiterKind): LimitState => {
  let shownEnd = Number.NEGATIVE_INFINITY;
  return {
    admit: (now) => {
      if (now >= shownEnd)
        shownEnd = kind === 'aligned' ? (Math.floor(now / windowMs) + 1) * windowMs : now + windowMs;
      const wait = inner.admit(now);
      return wait > 0 ? Math.max(wait, shownEnd - now) : 0;
    },
  };
};

/** Admits only `allowed` in the window that opens at the key's first request, then leaves `inner` to decide. */
export const firstWindowLow = (inner: LimitState, allowed: number, windowMs: number): LimitState => {
  let firstEnd: number | undefined;
  let used = 0;
  return {
    admit: (now) => {
      firstEnd ??= now + windowMs;
      if (now >= firstEnd) return inner.admit(now);
      if (used >= allowed) return firstEnd - now;
      const wait = inner.admit(now);
      if (wait === 0) used += 1;
      return wait;
    },
  };
};

/**
 * Admits everything, counting nothing, in the slice [from, to) of each window (as a fraction of it; aligned windows
 * by the clock, the others from the key's first request): a store that fails open in a periodic hiccup.
 */
export const failOpenSlice = (
  inner: LimitState,
  windowMs: number,
  kind: LimiterKind,
  [from, to]: readonly [number, number],
): LimitState => {
  let anchor: number | undefined;
  return {
    admit: (now) => {
      anchor ??= kind === 'aligned' ? 0 : now;
      const phase = (((now - anchor) % windowMs) + windowMs) % windowMs;
      return phase >= from * windowMs && phase < to * windowMs ? 0 : inner.admit(now);
    },
  };
};

/**
 * Checks the count before the admits of the last `lagMs` are in it: a counter read, then written a store round trip
 * later (GET, then SET), over-admits every request checked in that lag once the limit is reached. Each admit is
 * counted at the moment it was admitted, once its lag is over.
 */
export const racyCounter = (inner: LimitState, lagMs: number): LimitState => {
  const uncounted: number[] = [];
  const countDue = (now: number) => {
    while (uncounted.length > 0 && uncounted[0]! + lagMs <= now) inner.admit(uncounted.shift()!);
  };
  return {
    admit: (now) => {
      countDue(now);
      const { remaining, resetMs } = inner.left!(now);
      if (remaining === 0) return Math.max(1, resetMs);
      uncounted.push(now);
      return 0;
    },
    left: (now) => {
      countDue(now);
      return inner.left!(now);
    },
  };
};

/** Under limit-blocks-tenant: a refusal by one bucket refuses the owner everywhere until that bucket admits again. */
export const blocking = ({ state, owner, blockedUntil }: KeptState): LimitState => ({
  admit: (now) => {
    const until = blockedUntil.get(owner) ?? Number.NEGATIVE_INFINITY;
    if (now < until) return until - now;
    const wait = state.admit(now);
    if (wait > 0) blockedUntil.set(owner, now + wait);
    return wait;
  },
});

/** Windows the limit-penalty-box fault keeps a bucket shut after a refusal: a gateway's penalty past the window. */
const PENALTY_WINDOWS = 4;

/** Under limit-penalty-box: a refusal shuts the bucket for four windows, whatever it has admitted since. */
export const penaltyBox = ({ state, windowMs }: KeptState): LimitState => {
  let shutUntil = Number.NEGATIVE_INFINITY;
  return {
    admit: (now) => {
      if (now < shutUntil) return shutUntil - now;
      const wait = state.admit(now);
      if (wait <= 0) return wait;
      shutUntil = now + PENALTY_WINDOWS * windowMs;
      return shutUntil - now;
    },
  };
};

/** At most half the real wait: a retry that honours it comes too early and is refused again. */
export const halvedRetryAfter = (ms: number): string => String(Math.floor(ms / 2000));
