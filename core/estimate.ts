// The limit a saturated limiter sustains, read between its refusals. While a limiter keeps refusing, the admitted
// requests between a 429 and the moment k windows later number k·N for every faithful kind: a fixed window's
// partial first window and a token bucket's initial capacity lie before the first 429, so they drop out, and where
// the limiter's windows begin does not matter. Counting by send time shifts every request by its trip to the server
// alike, so the count moves only by the requests whose jitter carries them across the span's two ends.
import type { Timeline } from './timeline.ts';

export interface Reading {
  /** Admitted per window between refusals: every span's count added up, over every span's windows added up. */
  readonly perWindow: number;
  /** Windows in the longest span. */
  readonly windows: number;
  /** Spans read: from each 429, one for each whole number of windows it stays saturated. */
  readonly spans: number;
}

/**
 * A span counts only while a 429 recurs just before each whole window after the first: a fixed window is then known
 * spent at the same point of every window in the span, which is what makes the count k·N (a window that had not
 * filled, as when a knee starts low after a saturated phase, would read short). "Just before" is two slots, or the
 * time between two requests at the phase's peak rate where that is longer.
 */
const refusedNear = (tl: Timeline, slot: number, slack: number) => {
  for (let i = slot - slack; i <= slot; i++) if ((tl.slots.limited[i] ?? 0) > 0) return true;
  return false;
};

/** The limit read over [from, to): spans from every 429, extended window by window while a 429 recurs. */
export const sustained = (
  tl: Timeline,
  from: number,
  to: number,
  peakPerWindow: number,
): Reading | undefined => {
  const slotsPerWindow = Math.round(tl.windowMs / tl.slotMs);
  const slack = Math.max(2, Math.ceil(slotsPerWindow / peakPerWindow));
  // Long spans dilute the jitter at their ends, short ones are many: the ratio of sums weighs each by its length.
  let admitted = 0;
  let spanned = 0;
  let spans = 0;
  let windows = 0;
  for (let j = from; j < to; j++) {
    if (tl.slots.limited[j] === 0) continue;
    for (let k = 1; j + k * slotsPerWindow < to && refusedNear(tl, j + k * slotsPerWindow, slack); k++) {
      // Admitted in slots (j, j + k windows]: the 429's own slot is left out, the slot k windows later taken in.
      admitted += tl.prefix[j + k * slotsPerWindow + 1]! - tl.prefix[j + 1]!;
      spanned += k;
      spans++;
      windows = Math.max(windows, k);
    }
  }
  return spans === 0 ? undefined : { perWindow: admitted / spanned, windows, spans };
};

export interface OpeningBurst {
  /** Admitted from the phase's first request to its first 429. */
  readonly admitted: number;
  readonly ms: number;
  /** What the burst holds beyond the sustained rate over its length: a token bucket's capacity. */
  readonly beyondRate: number;
}

/** The phase's opening burst: what the limiter let through before it first refused. */
export const openingBurst = (
  tl: Timeline,
  from: number,
  to: number,
  perWindow: number,
): OpeningBurst | undefined => {
  let first = from;
  while (first < to && tl.slots.admitted[first] === 0 && tl.slots.limited[first] === 0) first++;
  let refusal = first;
  while (refusal < to && tl.slots.limited[refusal] === 0) refusal++;
  if (refusal >= to) return undefined;
  const admitted = tl.prefix[refusal]! - tl.prefix[first]!;
  const ms = (refusal - first) * tl.slotMs;
  return { admitted, ms, beyondRate: admitted - (perWindow * ms) / tl.windowMs };
};
