// What every faithful rate limiter of N requests per window W admits: the figures a client's evidence must go past
// before it may call a limit broken. Conformance judges each request by its sending and its answer
// (src/runner/probe/limit-bounds.ts), load judges k6's per-slot counts (proofs.ts); both take their bounds from here. Pure
// arithmetic, no Node or k6 import: k6 bundles it from load/, Node imports it from src/.
//
// The faithful kinds are those gateways run (src/reference/limiter-kinds.ts): a fixed window aligned to the clock,
// or anchored at the first request after the previous window ended (either way consecutive windows begin at least
// W apart, each admitting N); a sliding log (at most N admitted in any (s − W, s]); a token bucket of capacity N
// refilled N per W, continuously (GCRA) or a whole token at a time on a schedule of N tokens per W. Each bound
// holds for each kind whatever its window's phase or its bucket's state, so evidence past one breaks SPEC.md §8
// however the limiter is built. (The bucket's capacity is N: a smaller one refuses a burst of N, a limit below N;
// a larger one breaks (S), which load grades WARN when the limiter otherwise refuses at N.)

/** A limit of `count` requests per window of `windowMs`. */
export interface LimitWindow {
  readonly count: number;
  readonly windowMs: number;
}

/**
 * (L) A refusal at t needs at least N admitted in (t − W, t]. A fixed window refuses only when the window holding t
 * holds N, and that window began in (t − W, t]. A sliding log: by definition. A bucket holds at least
 * N − (admitted in (t − W, t]) at t: if it was last full at some s in that interval, it held N then and has since
 * lost only what it admitted; if not, its cap never bound, so over the window it gained N and lost only what it
 * admitted. Refusing, it held under one token, so it admitted at least N.
 */
export const leastAdmittedBeforeRefusal = (limit: LimitWindow): number => limit.count;

/**
 * (U) After a refusal at t, at most k·N are admitted in (t, t + k·W]. A fixed window: the window holding t is full,
 * and windows begin at least W apart after it, so at most k more begin in (t, t + k·W]. A sliding log: the interval
 * is k intervals (s − W, s]. A bucket held under one token at t and refills k·N in it (a whole-token schedule of
 * N per W puts at most k·N in any half-open interval of k windows).
 */
export const mostAdmittedAfterRefusal = (limit: LimitWindow, windows: number): number =>
  windows * limit.count;

/** A bucket's refill in an interval of `spanMs`, in whole tokens: ⌊N·ℓ/W⌋. */
export const refilledIn = (limit: LimitWindow, spanMs: number): number =>
  Math.floor((limit.count * spanMs) / limit.windowMs);

/** How many fixed windows (S) counts in an interval of `spanMs` that window edges may cut: ⌊ℓ/W⌋ + 2. */
export const windowsMet = (limit: LimitWindow, spanMs: number): number =>
  Math.floor(spanMs / limit.windowMs) + 2;

/**
 * (S) The most admitted in a closed interval of length ℓ; `edgeFree`: the caller knows that, were the limiter a
 * fixed window, no edge of it falls inside.
 * - A fixed window: the windows meeting [x, x + ℓ] begin in (x − W, x + ℓ], at least W apart: at most ⌈ℓ/W⌉ + 1,
 *   each admitting N; with no edge inside, one: N.
 * - A bucket: at most N at the start, plus its refill, N·ℓ/W continuously; a whole-token schedule can add one more
 *   (a token due at the very instant the interval starts, after the first requests emptied it): N + ⌊N·ℓ/W⌋ + 1.
 * - A sliding log: [x, x + ℓ] lies within ⌊ℓ/W⌋ + 1 intervals (s − W, s], each holding N; never more than the
 *   bucket's figure, as N·⌊ℓ/W⌋ ≤ ⌊N·ℓ/W⌋.
 * Where edges may cut, the figure used is N·(⌊ℓ/W⌋ + 2): equal to the fixed window's N·(⌈ℓ/W⌉ + 1), and at least
 * the bucket's, whenever ℓ is not a whole number of windows; at ℓ = k·W the bucket's N·(k + 1) + 1 exceeds the fixed
 * window's, and N·(k + 2) covers both. Never below any kind's figure, so a count above it breaks every kind.
 */
export const mostAdmittedInSpan = (limit: LimitWindow, spanMs: number, edgeFree = false): number => {
  const fixed = edgeFree ? limit.count : limit.count * windowsMet(limit, spanMs);
  return Math.max(fixed, limit.count + refilledIn(limit, spanMs) + 1);
};
