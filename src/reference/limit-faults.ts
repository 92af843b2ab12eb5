// Limiters that break one property of SPEC.md §8 and look faithful otherwise: each is the reference server's
// stand-in for a gateway misconfigured in a way a one-window probe cannot see (issue 21). They wrap the
// algorithms of limiter-kinds.ts, so every kind can carry each fault.
import type { BucketId } from '../spec/index.ts';
import type { FaultName } from './faults.ts';
import { createLimitState, type LimiterKind, type LimitState, SlidingLog } from './limiter-kinds.ts';

/**
 * Refuses on a short window but answers with the wait a faithful window of `windowMs` would give, aligned or
 * anchored at the first request as `kind` is: a client that trusts Retry-After never sees the early resets.
 */
const earlyReset = (inner: LimitState, windowMs: number, kind: LimiterKind): LimitState => {
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
const firstWindowLow = (inner: LimitState, allowed: number, windowMs: number): LimitState => {
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

/** The state a limit-breaking fault runs instead of `kind`'s faithful one; undefined for every other fault. */
export const faultyLimitState = (
  bucket: BucketId,
  fault: FaultName | undefined,
  factor: number | undefined,
  kind: LimiterKind,
  count: number,
  windowMs: number,
): LimitState | undefined => {
  switch (fault) {
    case 'limit-window-short':
      return createLimitState(kind, count, windowMs * factor!);
    case 'limit-early-reset':
      return earlyReset(createLimitState(kind, count, windowMs * factor!), windowMs, kind);
    case 'limit-first-window-low':
      // One bucket only: every other fault's exact-limit check stays untouched.
      if (bucket !== 'batch-upload-url') return undefined;
      return firstWindowLow(createLimitState(kind, count, windowMs), Math.floor(count * factor!), windowMs);
    case 'limit-counts-refused':
      return new SlidingLog(count, windowMs, true);
    default:
      return undefined;
  }
};
