// SPEC.md §8's table says "N requests / minute" (or second): a window as long as stated. Its length shows only
// between two window edges, so the probe's window-end burst (src/runner/probe/window-length.ts) is what tests it; this
// says what that test showed. A length it did not show is not verified, and LIMIT-ENFORCED-* does not PASS on it.
import { lengthShown, type ObservedRequest, type ProbeResult } from '../src/runner/checks.ts';

export interface WindowLength {
  readonly shown: boolean;
  readonly text: string;
}

/** What the probe showed of the window's length, for LIMIT-ENFORCED's message. */
export const windowLength = (
  result: ProbeResult,
  log: readonly ObservedRequest[],
  at: (t: number) => string,
): WindowLength => {
  const { windowEndAfter: after, windowEnd } = result;
  if (after === undefined || windowEnd === undefined) {
    return {
      shown: false,
      text: "the window's length was not verified: no window-end burst (no window edge was seen, or a burst was refused below the limit: see LIMIT-ADMITS)",
    };
  }
  const shown = lengthShown(result.limit, after, windowEnd.requests, log);
  const from = `the last refusal before the edge ('${after.label}', sent ${at(after.sent)})`;
  const tries =
    result.windowEndTries > 1 ? ` (try ${result.windowEndTries}: each earlier one came too late)` : '';
  if (!shown.shown && shown.early) {
    return {
      shown: false,
      text: `the window's length was not verified: the window-end burst went before an admit after ${from} was answered${tries}, so it shows no length`,
    };
  }
  if (!shown.shown) {
    return {
      shown: false,
      text: `the window's length was not verified: only ${shown.inTime} of the window-end burst's answers came within a window of ${from}${tries}, too few to show a second window; a narrower burst (closer target, a less loaded runner) would decide`,
    };
  }
  const { admitted, inTime, firstAdmitted, least } = shown;
  const sent = at(Math.min(...windowEnd.requests.map((r) => r.sent)));
  return {
    shown: true,
    text: `the window is at least ${least} ms long (stated: ${result.limit.windowMs} ms): within a window of ${from}, ${admitted} admitted and ${inTime} window-end requests answered${tries}, and no second window admitted them (a window shorter than from '${firstAdmitted.label}' answered, ${at(firstAdmitted.answered)}, to the window-end burst, ${sent}, would have)`,
  };
};
