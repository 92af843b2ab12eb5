// SPEC.md §8's table says "N requests / minute" (or second): a window as long as stated. Its length shows only
// between two window edges, so the probe's window-end burst (src/runner/probe-steps.ts) is what tests it; this says
// whether that test took place in time to count.
import type { ProbeResult } from '../src/runner/checks.ts';

/**
 * Whether the probe tested the window's length: its window-end burst was answered within a window of the last
 * refusal before the edge, where a shorter window would have opened another and admitted it (bound U).
 */
export const windowLength = (result: ProbeResult, at: (t: number) => string) => {
  const { windowEndAfter: after, windowEnd } = result;
  if (after === undefined || windowEnd === undefined)
    return {
      verified: false,
      why: 'no window edge was seen after the first 429, so no second one was sought',
    };
  const by = after.sent + result.limit.windowMs;
  const last = Math.max(...windowEnd.requests.map((r) => r.answered));
  if (last > by) {
    return {
      verified: false,
      why: `the window-end burst's last answer came at ${at(last)}, after ${at(by)}, a window from the last refusal before the edge ('${after.label}', sent ${at(after.sent)}): harness's burst was too wide to tell a shorter window from the stated one`,
    };
  }
  return {
    verified: true,
    why: `the window is no shorter than stated: from the last refusal before the edge ('${after.label}', sent ${at(after.sent)}) to the window-end burst's last answer (${at(last)}), no second window opened`,
  };
};
