// What the client can prove about a rate limit of N per window W from its own requests alone. A request reached the
// server at some instant between when it was sent and when its answer arrived; that interval is all we know. The
// scans below find, among those intervals, evidence past the bounds every faithful limiter obeys, whatever its
// window's phase or its bucket's state (core/faithful-bounds.ts derives them: (L) a refusal needs N admitted in
// the window before it, (U) at most N admitted in the window after it, (S) at most so many in any stretch), so a
// violation of one is a violation of SPEC.md §8 by every reading.

import {
  type LimitWindow,
  leastAdmittedBeforeRefusal,
  mostAdmittedAfterRefusal,
  mostAdmittedInSpan,
  refilledIn,
} from '../../../core/faithful-bounds.ts';
import { isSuccess } from '../../client/index.ts';

export type { LimitWindow };

/** One of our requests to a bucket, as the client saw it. */
export interface Observation {
  /** Epoch ms, taken before the request left and after its whole answer arrived. */
  readonly sent: number;
  readonly answered: number;
  /** undefined: no HTTP answer (connection failed, timed out). */
  readonly status: number | undefined;
  /** Whether it carried a valid token of the tenant whose bucket this is: only then does a success count for sure. */
  readonly ours: boolean;
  readonly label: string;
}

/** Requests sent closer together than this belong to one burst (a burst leaves within microseconds). */
const BURST_GAP_MS = 5;

export const isRefused = (o: Observation): boolean => o.status === 429;
/** Certainly spent a unit of the limit: a success of ours. */
export const isAdmitted = (o: Observation): boolean => o.ours && isSuccess(o.status);
/** May have spent a unit: anything not refused, our own or not (a gateway may count 401s, 403s and errors too). */
export const mayHaveCounted = (o: Observation): boolean => !isRefused(o);

export const ms = (value: number): string => `${Math.round(value)} ms`;

/**
 * Why refusals in `log` show nothing about a limit, when every one of harness's requests there was refused: a tenant
 * its operator blocked, or one whose other integrations hold the whole limit (§8 rule 1), is refused whatever the
 * limit is. Undefined once any answer of ours was other than 429, or there was none.
 */
export const allRefused = (log: readonly Observation[]): string | undefined => {
  const ours = log.filter((o) => o.ours);
  if (ours.length === 0 || !ours.every(isRefused)) return undefined;
  return `every one of harness's ${ours.length} requests here got 429 in the whole run: the tenant looks blocked, or other traffic holds its whole limit (SPEC.md §8 rule 1), so no refusal shows the limit itself`;
};

type Interval = Pick<Observation, 'sent' | 'answered'>;

/**
 * A request not refused that the server may have handled after `refusal` and before `retry` (answered after the
 * refusal left, sent before the retry's answer: a poll or burst request still under way when the refusal came back,
 * a 401 before its retry with a fresh token, a 500, no answer, another check's success): room may come back before
 * the Retry-After says, whole seconds rounded up, and this request may have taken it, so a refused retry proves
 * nothing about the Retry-After. Undefined when there was none.
 */
export const mayHaveSpentRoom = <T extends Observation>(
  log: readonly T[],
  refusal: Interval,
  retry: Interval,
): T | undefined =>
  log.find((o) => mayHaveCounted(o) && o.answered > refusal.sent && o.sent < retry.answered);

/** Times in evidence are shown relative to the first request of the probe: `+12 ms`, or `-680 ms` before it. */
export const relativeTo =
  (origin: number) =>
  (value: number): string => {
    const offset = Math.round(value - origin);
    return `${offset < 0 ? '-' : '+'}${Math.abs(offset)} ms`;
  };

/** The stretch of time a proof counted requests in, and which it counted: what a picture of the proof draws. */
export interface Stretch {
  readonly from: number;
  readonly until: number;
  readonly counts: (o: Observation) => boolean;
  /** The 429 the proof turns on, if any. */
  readonly refusal?: Observation;
}

export interface RefusedBelowLimit<T extends Observation = Observation> {
  readonly refused: T;
  /** The most requests that can have been admitted in the window before it. */
  readonly atMost: number;
  /** The fewest every faithful limiter has admitted in the window before a refusal. */
  readonly least: number;
  readonly stretch: Stretch;
  readonly explain: (at: (t: number) => string) => string;
}

/**
 * The most requests that can have been admitted in the window before a refusal, for each refusal asked of: every
 * answer comes after its request, so those answered after t−W and sent before the refusal's answer are those sent
 * before it, less those answered by t−W. The log's times are sorted once here, and each refusal costs two binary
 * searches: the bounds ask this of every refusal in a log.
 */
const mostAdmittedBefore = (log: readonly Observation[], limit: LimitWindow) => {
  const counted = log.filter(mayHaveCounted);
  const sent = counted.map((o) => o.sent).sort((a, b) => a - b);
  const answered = counted.map((o) => o.answered).sort((a, b) => a - b);
  return (refused: Observation): number =>
    countBelow(sent, refused.answered) - countBelow(answered, refused.sent - limit.windowMs, true);
};

/** Whether N requests can have been admitted in the window before a refusal: (L) holds for it. */
export const fullBefore = (log: readonly Observation[], limit: LimitWindow) => {
  const atMostBefore = mostAdmittedBefore(log, limit);
  return (refused: Observation): boolean => atMostBefore(refused) >= leastAdmittedBeforeRefusal(limit);
};

/** (L): the refusal for which the fewest requests can have been admitted in the window before it, if below N. */
export const refusedBelowLimit = <T extends Observation>(
  log: readonly Observation[],
  limit: LimitWindow,
  among: readonly T[],
): RefusedBelowLimit<T> | undefined => {
  const atMostBefore = mostAdmittedBefore(log, limit);
  const least = leastAdmittedBeforeRefusal(limit);
  let best: RefusedBelowLimit<T> | undefined;
  for (const refused of among.filter(isRefused)) {
    const atMost = atMostBefore(refused);
    if (atMost >= least || (best !== undefined && best.atMost <= atMost)) continue;
    const from = refused.sent - limit.windowMs;
    best = {
      refused,
      atMost,
      least,
      stretch: {
        from,
        until: refused.answered,
        counts: (o) => mayHaveCounted(o) && o.answered > from && o.sent < refused.answered,
        refusal: refused,
      },
      explain: (at) =>
        `'${refused.label}' (sent ${at(refused.sent)}, answered ${at(refused.answered)}) got 429, yet at most ` +
        `${atMost} requests can have been admitted in the ${ms(limit.windowMs)} before it (every request not ` +
        `refused that was answered after ${at(refused.sent - limit.windowMs)} and sent before ${at(refused.answered)}); ` +
        `every faithful limiter of ${limit.count} per ${ms(limit.windowMs)} refuses only with ${least} admitted in the window before`,
    };
  }
  return best;
};

/** How many of the sorted values are below `value` (or, `inclusive`, at most `value`): a binary search. */
const countBelow = (sorted: readonly number[], value: number, inclusive = false): number => {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (sorted[mid]! < value || (inclusive && sorted[mid] === value)) low = mid + 1;
    else high = mid;
  }
  return low;
};

export interface AdmittedOverLimit {
  readonly admitted: number;
  readonly bound: number;
  readonly stretch: Stretch;
  readonly explain: (at: (t: number) => string) => string;
}

/** (U): more than N of ours certainly admitted within one window after a refusal. */
export const admittedAfterRefusal = (
  log: readonly Observation[],
  limit: LimitWindow,
): AdmittedOverLimit | undefined => {
  const admitted = log.filter(isAdmitted);
  const bound = mostAdmittedAfterRefusal(limit, 1);
  // (U) holds after a refusal a faithful limiter can have made: one with fewer than N admitted before it (a
  // penalty box's) breaks (L), and a limiter that refused below its limit may admit it whole, twice across an edge,
  // within a window of that refusal without ever admitting more than N in one of its windows.
  const full = fullBefore(log, limit);
  let best: AdmittedOverLimit | undefined;
  for (const refused of log.filter((o) => isRefused(o) && full(o))) {
    const until = refused.sent + limit.windowMs;
    const within = admitted.filter((o) => o.sent >= refused.answered && o.answered <= until).length;
    if (within <= bound || (best !== undefined && best.admitted >= within)) continue;
    best = {
      admitted: within,
      bound,
      stretch: {
        from: refused.answered,
        until,
        counts: (o) => isAdmitted(o) && o.sent >= refused.answered && o.answered <= until,
        refusal: refused,
      },
      explain: (at) =>
        `after '${refused.label}' got 429 (sent ${at(refused.sent)}, answered ${at(refused.answered)}), ${within} ` +
        `requests sent after that answer were admitted and answered by ${at(until)}, within one window of the ` +
        `refusal; every faithful limiter of ${limit.count} per ${ms(limit.windowMs)} admits at most ${bound} ` +
        'in the window after a refusal (a full fixed window ends and at most one more begins; a sliding log holds ' +
        'at most the limit; a token bucket had under one token and refills the limit per window)',
    };
  }
  return best;
};

/**
 * A stretch in which, were the limiter a fixed window, no window edge falls (found from an observed edge, see
 * window-edge.ts).
 */
export interface EdgeFree {
  readonly from: number;
  readonly until: number;
}

/**
 * (S): a set of our admitted requests, all handled inside one interval, larger than any faithful limiter admits in
 * it. With `edgeFree`, intervals starting at its `from` and ending by its `until` use the tighter bound.
 */
export const admittedInSpan = (
  log: readonly Observation[],
  limit: LimitWindow,
  edgeFree?: EdgeFree,
): AdmittedOverLimit | undefined => {
  const admitted = log.filter(isAdmitted);
  const byAnswer = [...admitted].sort((a, b) => a.answered - b.answered);
  // Stretches start where a burst (or a lone request) starts: a later start inside a burst only loses requests.
  const sentTimes = admitted.map((o) => o.sent).sort((a, b) => a - b);
  const starts = sentTimes.filter((t, i) => i === 0 || t - sentTimes[i - 1]! > BURST_GAP_MS);
  for (const from of starts) {
    let inside = 0;
    for (const o of byAnswer) {
      if (o.sent < from) continue;
      inside += 1;
      const span = o.answered - from;
      const tight = edgeFree !== undefined && from >= edgeFree.from && o.answered <= edgeFree.until;
      const bound = mostAdmittedInSpan(limit, span, tight);
      if (inside > bound) {
        const until = o.answered;
        return {
          admitted: inside,
          bound,
          stretch: { from, until, counts: (r) => isAdmitted(r) && r.sent >= from && r.answered <= until },
          explain: (at) =>
            `${inside} requests sent from ${at(from)} on were admitted and answered by ${at(o.answered)} ` +
            `(${ms(span)}); no faithful limiter of ${limit.count} per ${ms(limit.windowMs)} admits more than ${bound} ` +
            `in ${ms(span)} (${
              tight
                ? 'an observed window edge places this stretch inside one fixed window'
                : 'a fixed window cut by its edges'
            }, or a token bucket: the limit plus ${refilledIn(limit, span)} refilled)`,
        };
      }
    }
  }
  return undefined;
};

/**
 * The most of our admitted requests handled within one window (sent at or after some t, answered by t + W): a
 * limiter that admitted that many in a window admits the whole limit when it reaches it.
 */
export const mostAdmittedWithinWindow = (log: readonly Observation[], limit: LimitWindow): number => {
  const admitted = log.filter(isAdmitted);
  let most = 0;
  for (const from of admitted) {
    const until = from.sent + limit.windowMs;
    const inside = admitted.filter((o) => o.sent >= from.sent && o.answered <= until).length;
    most = Math.max(most, inside);
  }
  return most;
};
