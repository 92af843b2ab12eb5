// SPEC.md §8's table says "N requests / minute" (or second): a window as long as stated. Its length shows only
// between two window edges, so the probe's window-end burst (src/runner/probe-steps.ts) is what tests it; this says
// whether that test took place in time to count.
import { isAdmitted, type ObservedRequest, type ProbeResult } from '../src/runner/checks.ts';

/**
 * What the probe showed of the window's length. Had every window-end request answered within a window of the last
 * refusal before the edge been admitted, bound (U) would have broken; and a window shorter than the time from the
 * first admitted poll's answer to the window-end burst would have opened another before that burst, so admitted
 * it. Said in LIMIT-ENFORCED's message either way (a burst a loaded runner sent late leaves it untested).
 */
export const windowLength = (
  result: ProbeResult,
  log: readonly ObservedRequest[],
  at: (t: number) => string,
): string => {
  const { windowEndAfter: after, windowEnd } = result;
  if (after === undefined || windowEnd === undefined)
    return "the window's length was not verified: no window-end burst (no window edge was seen, or a burst was refused below the limit: see LIMIT-ADMITS)";
  const by = after.sent + result.limit.windowMs;
  const burst = new Set(windowEnd.requests);
  const within = (o: ObservedRequest) => o.sent >= after.answered && o.answered <= by;
  const admitted = log.filter((o) => isAdmitted(o) && within(o) && !burst.has(o.request));
  const inTime = windowEnd.requests.filter((r) => r.answered <= by).length;
  const from = `the last refusal before the edge ('${after.label}', sent ${at(after.sent)})`;
  const firstAdmitted = admitted.reduce<ObservedRequest | undefined>(
    (a, o) => (a === undefined || o.answered < a.answered ? o : a),
    undefined,
  );
  if (admitted.length + inTime <= result.limit.count || firstAdmitted === undefined) {
    return `the window's length was not verified: only ${inTime} of the window-end burst's answers came within a window of ${from}, too few to show a second window`;
  }
  const sent = Math.min(...windowEnd.requests.map((r) => r.sent));
  const least = Math.round(sent - firstAdmitted.answered);
  return `the window is at least ${least} ms long (stated: ${result.limit.windowMs} ms): within a window of ${from}, ${admitted.length} admitted and ${inTime} window-end requests answered, and no second window admitted them (a window shorter than from '${firstAdmitted.label}' answered, ${at(firstAdmitted.answered)}, to the window-end burst, ${at(sent)}, would have)`;
};
