// A limit FAIL's proof as data a picture can be drawn from: the bucket's requests around the stretch of time the
// proof counted in, each as the interval from its sending to its answer, and the bound the count broke. Recorded with
// the check (conformance.json `timeline`), so the HTML report draws what the proof used, not a re-measurement.
import type { AdmittedOverLimit, LimitWindow, Observation, RefusedBelowLimit } from './probe/limit-bounds.ts';

export interface TimelineRequest {
  /** Milliseconds from the probe's first request. */
  readonly sent: number;
  readonly answered: number;
  /** Absent: no HTTP answer. */
  readonly status?: number;
  /** The proof counted it in its stretch. */
  readonly counted: boolean;
  /** The 429 the proof turns on. */
  readonly refusal?: boolean;
}

export interface LimitTimeline {
  readonly limit: { readonly count: number; readonly windowMs: number };
  /** The stretch the proof counted in, in milliseconds from the probe's first request. */
  readonly from: number;
  readonly until: number;
  /**
   * `over`: `counted` admitted in the stretch, more than the `bound` every faithful limiter keeps to; `under`: a 429
   * with at most `counted` admitted in the window before it, where every faithful limiter needs `bound`.
   */
  readonly claim: 'over' | 'under';
  readonly counted: number;
  readonly bound: number;
  /** In the order sent; past MAX_DRAWN, an even sample of them that keeps the refusal. */
  readonly requests: readonly TimelineRequest[];
  /** How many requests the stretch held, when `requests` is a sample of them. */
  readonly shownOf?: number;
}

/** Requests a picture draws at most: a limit in the thousands would otherwise make a page of megabytes. */
export const MAX_DRAWN = 1000;

/** Every k-th of `all`, and whatever `keep` says, so at most about `most` remain. */
const sample = <T>(all: readonly T[], most: number, keep: (t: T) => boolean): T[] => {
  if (all.length <= most) return [...all];
  const step = all.length / most;
  return all.filter((t, i) => keep(t) || Math.floor(i / step) !== Math.floor((i - 1) / step));
};

/** How far either side of the stretch the picture reaches, as a share of its width: enough to show what led up. */
const CONTEXT = 0.15;

const tenth = (ms: number): number => Math.round(ms * 10) / 10;

export const limitTimeline = (
  log: readonly Observation[],
  limit: LimitWindow,
  origin: number,
  proof: RefusedBelowLimit | AdmittedOverLimit,
): LimitTimeline => {
  const { stretch } = proof;
  const pad = Math.max(5, (stretch.until - stretch.from) * CONTEXT);
  const inStretch = log
    .filter((o) => o.answered >= stretch.from - pad && o.sent <= stretch.until + pad)
    .sort((a, b) => a.sent - b.sent);
  const at = (t: number) => tenth(t - origin);
  // The proof may have judged a view of the log other than `log` (one burst's requests): the same request, another object.
  const { refusal } = stretch;
  const isRefusal = (o: Observation) =>
    refusal !== undefined &&
    o.sent === refusal.sent &&
    o.answered === refusal.answered &&
    o.label === refusal.label;
  const shown = sample(inStretch, MAX_DRAWN, isRefusal);
  return {
    limit: { count: limit.count, windowMs: limit.windowMs },
    ...(shown.length < inStretch.length ? { shownOf: inStretch.length } : {}),
    from: at(stretch.from),
    until: at(stretch.until),
    ...('atMost' in proof
      ? { claim: 'under' as const, counted: proof.atMost, bound: proof.least }
      : { claim: 'over' as const, counted: proof.admitted, bound: proof.bound }),
    requests: shown.map((o) => ({
      sent: at(o.sent),
      answered: at(o.answered),
      ...(o.status === undefined ? {} : { status: o.status }),
      counted: stretch.counts(o),
      ...(isRefusal(o) ? { refusal: true } : {}),
    })),
  };
};
