// Where a fixed window's edge lies, were the limiter one, and the stretches it leaves free of edges: the probe polls
// for the edge after its first 429 (probe-edge.ts) and times its fresh burst into such a stretch, where bound (S) is
// tightest (limit-bounds.ts). Only an edge every faithful limiter could have made may tighten a bound; any edge still
// times a burst.
import {
  type EdgeFree,
  fullBefore,
  isAdmitted,
  isRefused,
  type LimitWindow,
  mayHaveCounted,
  type Observation,
} from './limit-bounds.ts';

/** Where a fixed window's edge lies, if the limiter is one: after a refusal, before the first admit that follows. */
export interface Edge {
  /** Sent time of the last request refused before the edge. */
  readonly after: number;
  /** Answer time of the first request admitted after it. */
  readonly by: number;
  /**
   * Whether every refusal before it is one a faithful limiter makes: only then may it stand for a fixed window's
   * edge in a proof (EdgeFree). Else it still times a burst.
   */
  readonly windowed: boolean;
}

/**
 * Were the limiter a fixed window, where its edge lies after the refusal `first`: after every later refusal that came
 * before the window holding the first admitted poll (answered before that poll left, or with too few admitted
 * since `first` to have filled a new window), and no later than that poll's answer.
 */
export const edgeAfter = (
  first: Observation,
  polls: readonly Observation[],
  log: readonly Observation[],
  limit: LimitWindow,
): Edge | undefined => {
  const admitted = polls.filter(isAdmitted).sort((a, b) => a.answered - b.answered)[0];
  if (admitted === undefined) return undefined;
  const counted = log.filter((o) => mayHaveCounted(o) && o.answered > first.sent);
  const before = [first, ...polls].filter(
    (r) =>
      isRefused(r) &&
      (r.answered <= admitted.sent || counted.filter((o) => o.sent < r.answered).length < limit.count),
  );
  if (before.length === 0) return undefined;
  // A refusal no faithful limiter makes (fewer than N admitted before it: a penalty box's, or a limit set low) says
  // nothing of where a fixed window's edge lies: the capacity that came back after it may have come back mid-window.
  const windowed = before.every(fullBefore(log, limit));
  return { after: Math.max(...before.map((r) => r.sent)), by: admitted.answered, windowed };
};

/**
 * Were the limiter a fixed window, the first stretch from `start` on, `width` long, in which no window edge falls:
 * aligned windows repeat every W from the edge, so the window k after it spans at least
 * [by + k·W, after + (k+1)·W); an anchored one opens at our first request after idling a window.
 */
export const edgeFreeFrom = (
  edge: Pick<Edge, 'after' | 'by'>,
  windowMs: number,
  start: number,
  width = 0,
): EdgeFree => {
  // Window 0 (the one the edge opened) counts too: a stretch in it meets no edge, whatever was admitted before.
  let windows = Math.max(0, Math.floor((start - edge.after) / windowMs));
  // One window later when the burst would not fit before the edge; if it fits in none (the edge is known too
  // loosely), the stretch still bounds the answers that come before its end.
  if (Math.max(start, edge.by + windows * windowMs) + width >= edge.after + (windows + 1) * windowMs)
    windows += 1;
  return {
    from: Math.max(start, edge.by + windows * windowMs),
    until: edge.after + (windows + 1) * windowMs,
  };
};
