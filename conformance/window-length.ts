// SPEC.md §8's table says "N requests / minute" (or second): a window as long as stated. Its length shows only
// between two window edges, so the probe's window-end burst (src/runner/probe-steps.ts) is what tests it; this says
// whether that test took place in time to count.
import { isAdmitted, type ObservedRequest, type ProbeResult } from '../src/runner/checks.ts';

/**
 * Whether the probe tested the window's length: had every window-end request answered within a window of the last
 * refusal before the edge been admitted, as a shorter window would have admitted them, bound (U) would have broken.
 * Said in LIMIT-ENFORCED's message either way (a burst a loaded runner sent late leaves it untested).
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
  const admitted = log.filter((o) => isAdmitted(o) && within(o) && !burst.has(o.request)).length;
  const inTime = windowEnd.requests.filter((r) => r.answered <= by).length;
  const from = `the last refusal before the edge ('${after.label}', sent ${at(after.sent)})`;
  if (admitted + inTime <= result.limit.count) {
    return `the window's length was not verified: only ${inTime} of the window-end burst's answers came within a window of ${from}, too few to show a second window`;
  }
  return `the window is no shorter than stated: within a window of ${from}, ${admitted} admitted and ${inTime} window-end requests answered, and no second window admitted them`;
};
