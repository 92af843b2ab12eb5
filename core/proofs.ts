// Proofs that a limit is broken, from what a client knows: each request reached the server somewhere between its
// sending and its answer. Each proof holds for every faithful limiter of N per window W, wherever its windows
// began, because it rests only on the bounds every kind obeys (faithful-bounds.ts): (U) after a refusal at t, at
// most k·N admitted in (t, t + k·W]; (L) a refusal at t needs N admitted in (t − W, t]; (B) at most so many admitted
// in any interval of length D (its (S)). A request sent in slot i with round trip r reached the server in
// [i·q, (i+1)·q + r] (q: the slot width).
import {
  type LimitWindow,
  leastAdmittedBeforeRefusal,
  mostAdmittedAfterRefusal,
  mostAdmittedInSpan,
  windowsMet,
} from './faithful-bounds.ts';
import type { Timeline } from './timeline.ts';

/** Where a proof lies on the run's clock (ms since its start), for a chart to mark. */
export interface ProofSpan {
  /** The requests the proof counts were sent or arrived in [fromMs, toMs]. */
  readonly fromMs: number;
  readonly toMs: number;
  /** The send time of the 429 the proof rests on, where it rests on one. */
  readonly refusalMs?: number;
}

export interface Proof {
  /** Which way the limit is broken: more admitted than it allows, or refused while it had room. */
  readonly breaks: 'too-many' | 'too-few';
  readonly message: string;
  readonly span: ProofSpan;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

const limitOf = (tl: Timeline): LimitWindow => ({ count: tl.limit, windowMs: tl.windowMs });
const latestAdmitted = (tl: Timeline, i: number) => (i + 1) * tl.slotMs + tl.slots.admittedMaxRttMs[i]!;
const latestRefusal = (tl: Timeline, j: number) => (j + 1) * tl.slotMs + tl.slots.limitedMinRttMs[j]!;

/**
 * (U): admitted requests certainly after a 429 and certainly within k windows of it, for every k. Proofs that too
 * many were admitted count only the phase's own slots [from, to), so each names the phase that shows the excess.
 */
export const tooManyAfterRefusal = (tl: Timeline, from: number, to: number): Proof | undefined => {
  const { slotMs: q, windowMs: w, limit: n, slots } = tl;
  const limit = limitOf(tl);
  const length = to;
  let worst: { excess: number; proof: Proof } | undefined;
  for (let j = from; j < to; j++) {
    if (slots.limited[j] === 0) continue;
    const refusedBy = latestRefusal(tl, j);
    const windows = Math.ceil((length * q - j * q) / w);
    // certain[k]: admitted requests that reached the server after the 429 and before j·q + k·W.
    const certain = Array.from({ length: windows + 1 }, () => 0);
    for (let i = Math.floor(refusedBy / q) + 1; i < length; i++) {
      const a = slots.admitted[i]!;
      if (a === 0) continue;
      const k = Math.max(1, Math.ceil((latestAdmitted(tl, i) - j * q) / w));
      if (k <= windows) certain[k]! += a;
    }
    let total = 0;
    for (let k = 1; k <= windows; k++) {
      total += certain[k]!;
      const bound = mostAdmittedAfterRefusal(limit, k);
      const excess = total - bound;
      if (excess > 0 && (worst === undefined || excess / bound > worst.excess)) {
        worst = {
          excess: excess / bound,
          proof: {
            breaks: 'too-many',
            span: { fromMs: j * q, toMs: j * q + k * w, refusalMs: j * q },
            message:
              `${total} requests admitted within ${k} window${k === 1 ? '' : 's'} after a 429 ` +
              `(sent at ${seconds(j * q)}, answered by ${seconds(refusedBy)}): a faithful limiter admits at most ${k} × ${n} = ${bound}`,
          },
        };
      }
    }
  }
  return worst?.proof;
};

/** (B): admitted requests in an interval of known length, against the most any faithful limiter admits there. */
export const tooManyInInterval = (tl: Timeline, from: number, to: number): Proof | undefined => {
  const { slotMs: q, limit: n, slots } = tl;
  const limit = limitOf(tl);
  let worst: { excess: number; proof: Proof } | undefined;
  for (let start = from; start < to; start++) {
    if (slots.admitted[start] === 0) continue;
    let admitted = 0;
    let end = 0;
    for (let i = start; i < to; i++) {
      if (slots.admitted[i] === 0) continue;
      admitted += slots.admitted[i]!;
      end = Math.max(end, latestAdmitted(tl, i));
      const span = end - start * q;
      const bound = mostAdmittedInSpan(limit, span);
      if (admitted > bound && (worst === undefined || admitted / bound - 1 > worst.excess)) {
        worst = {
          excess: admitted / bound - 1,
          proof: {
            breaks: 'too-many',
            span: { fromMs: start * q, toMs: end },
            message:
              `${admitted} requests admitted between ${seconds(start * q)} and ${seconds(end)}: ` +
              `any faithful limiter admits at most ${bound} in ${seconds(span)} (${windowsMet(limit, span)} fixed windows of ${n} may meet it)`,
          },
        };
      }
    }
  }
  return worst?.proof;
};

/**
 * (L): for a 429 sent in slot j, the most requests that can have been admitted in the window before it, over
 * every moment it may have arrived; fewer than N proves the limit lower than N. Only the 429 with the shortest
 * round trip in the slot is used: it arrived no later than its answer.
 */
export const tooFewBeforeRefusal = (tl: Timeline, from: number, to: number): Proof | undefined => {
  const { slotMs: q, windowMs: w, slots } = tl;
  const limit = limitOf(tl);
  // A reduce, not a spread: an hour's phase has millions of slots, past the engine's limit on arguments.
  const longestRtt = slots.admittedMaxRttMs.reduce((a, b) => Math.max(a, b), 0);
  const least = leastAdmittedBeforeRefusal(limit);
  let fewest: { possible: number; proof: Proof } | undefined;
  for (let j = from; j < to; j++) {
    if (slots.limited[j] === 0) continue;
    const arrivedBy = latestRefusal(tl, j);
    let most = 0;
    // The count changes only when a slot's earliest arrival enters (x − W, x]: try x at j·q and at each such entry.
    for (let entry = j; entry * q <= arrivedBy; entry++) {
      const x = Math.max(entry * q, j * q);
      let possible = tl.unplaced;
      const lowest = Math.max(0, Math.floor((x - w - longestRtt) / q) - 1);
      for (let i = lowest; i * q <= x && i < slots.admitted.length; i++) {
        if (slots.admitted[i]! > 0 && latestAdmitted(tl, i) > x - w) possible += slots.admitted[i]!;
      }
      most = Math.max(most, possible);
    }
    if (most < least && (fewest === undefined || most < fewest.possible)) {
      fewest = {
        possible: most,
        proof: {
          breaks: 'too-few',
          span: { fromMs: Math.max(0, j * q - w), toMs: arrivedBy, refusalMs: j * q },
          message:
            `a 429 (sent at ${seconds(j * q)}, answered by ${seconds(arrivedBy)}) with at most ${most} requests ` +
            `admitted in the window before it: a faithful limiter refuses only after ${least} (assuming no other traffic of the tenant)`,
        },
      };
    }
  }
  return fewest?.proof;
};
