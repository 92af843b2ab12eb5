// SPEC.md §8's table says "N requests / minute" (or second): a window as long as stated. Its length shows only
// between two window edges, so the probe's window-end burst (probe.ts) tests it. This says whether a window-end
// burst came in time to: the probe sends it again when it did not, and LIMIT-ENFORCED-* grades what it shows.

import type { BucketLimit } from '../../profile/target.ts';
import type { LoggedRequest, ObservedRequest } from '../bucket-log.ts';
import { isAdmitted } from './limit-bounds.ts';

/** What a window-end burst showed of the window's length, after `after` (the last refusal before the edge). */
export type LengthShown =
  | {
      readonly shown: true;
      /** Ours admitted within a window of `after`, besides the burst. */
      readonly admitted: number;
      /** The burst's answers within that window. */
      readonly inTime: number;
      /** The first of `admitted` to be answered: its window ends within `least` of its answer. */
      readonly firstAdmitted: ObservedRequest;
      /** From `firstAdmitted`'s answer to the burst: a window shorter than this would have admitted the burst. */
      readonly least: number;
    }
  | {
      readonly shown: false;
      readonly inTime: number;
      /** Enough answers in time, but the burst went before the first admit after the refusal was answered. */
      readonly early?: true;
    };

/**
 * Had every request answered within a window of `after` been admitted, bound (U) would have broken: more than the
 * limit in one window after a refusal. So a window shorter than from the first admitted answer to the burst would
 * have opened another before the burst and admitted it. Too few answers in time (a loaded runner sent the burst
 * late, or it was wider than the burst it was timed by) show nothing of the length.
 */
export const lengthShown = (
  limit: BucketLimit,
  after: LoggedRequest,
  burst: readonly LoggedRequest[],
  log: readonly ObservedRequest[],
): LengthShown => {
  const by = after.sent + limit.windowMs;
  const own = new Set(burst);
  const within = (o: ObservedRequest) => o.sent >= after.answered && o.answered <= by;
  const admitted = log.filter((o) => isAdmitted(o) && within(o) && !own.has(o.request));
  const inTime = burst.filter((r) => r.answered <= by).length;
  const firstAdmitted = admitted.reduce<ObservedRequest | undefined>(
    (a, o) => (a === undefined || o.answered < a.answered ? o : a),
    undefined,
  );
  if (admitted.length + inTime <= limit.count || firstAdmitted === undefined) return { shown: false, inTime };
  const least = Math.round(Math.min(...burst.map((r) => r.sent)) - firstAdmitted.answered);
  // Sent before that admit was answered (a burst that went before the edge was known): no length at all.
  if (least <= 0) return { shown: false, inTime, early: true };
  return { shown: true, admitted: admitted.length, inTime, firstAdmitted, least };
};
