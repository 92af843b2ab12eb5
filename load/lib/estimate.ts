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
  /** Spans read: one from each 429 of the stretch, for each whole number of windows that fits. */
  readonly spans: number;
  /** First and last slot of the stretch in which the limiter kept refusing. */
  readonly from: number;
  readonly to: number;
}

/**
 * The longest stretch of [from, to) with a 429 about once a window or more often: the limiter stayed saturated.
 * A fifth of a window's slack keeps a limit of one per window, refused once a window, one stretch under jitter.
 */
export const saturatedStretch = (tl: Timeline, from: number, to: number) => {
  const perWindow = Math.round(tl.windowMs / tl.slotMs);
  const gap = perWindow + Math.round(perWindow / 5);
  let best: { from: number; to: number } | undefined;
  let current: { from: number; to: number } | undefined;
  for (let j = from; j < to; j++) {
    if (tl.slots.limited[j] === 0) continue;
    current =
      current !== undefined && j - current.to <= gap ? { from: current.from, to: j } : { from: j, to: j };
    if (best === undefined || current.to - current.from > best.to - best.from) best = current;
  }
  return best;
};

export const sustained = (tl: Timeline, from: number, to: number): Reading | undefined => {
  const stretch = saturatedStretch(tl, from, to);
  if (stretch === undefined) return undefined;
  const slotsPerWindow = Math.round(tl.windowMs / tl.slotMs);
  const windows = Math.floor((stretch.to - stretch.from) / slotsPerWindow);
  if (windows < 1) return undefined;
  // Long spans dilute the jitter at their ends, short ones are many: the ratio of sums weighs each by its length.
  let admitted = 0;
  let spanned = 0;
  let spans = 0;
  for (let k = 1; k <= windows; k++) {
    const span = k * slotsPerWindow;
    for (let j = stretch.from; j + span <= stretch.to; j++) {
      if (tl.slots.limited[j] === 0) continue;
      // Admitted in slots (j, j + span]: the 429's own slot is left out, the slot one span later taken in.
      admitted += tl.prefix[j + span + 1]! - tl.prefix[j + 1]!;
      spanned += k;
      spans++;
    }
  }
  return { perWindow: admitted / spanned, windows, spans, ...stretch };
};

export interface Burst {
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
): Burst | undefined => {
  let first = from;
  while (first < to && tl.slots.admitted[first] === 0 && tl.slots.limited[first] === 0) first++;
  let refusal = first;
  while (refusal < to && tl.slots.limited[refusal] === 0) refusal++;
  if (refusal >= to) return undefined;
  const admitted = tl.prefix[refusal]! - tl.prefix[first]!;
  const ms = (refusal - first) * tl.slotMs;
  return { admitted, ms, beyondRate: admitted - (perWindow * ms) / tl.windowMs };
};
