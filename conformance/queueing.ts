// §8 rule 2: "A request over the limit receives HTTP 429". A gateway that queues such requests instead answers them
// late, with a success, and never 429. From outside a held answer looks like a slow one, so this names the pattern
// where a run shows it (answers held far beyond the burst's own quick answers, released about a limit's worth per
// window) and leaves the grade INCONCLUSIVE: no answer shows when the server took the request.
import type { LoggedRequest, ProbeResult } from '../src/runner/checks.ts';

/** Held: longer than this many times the slowest of the quick answers, and a quarter of a window more. */
const HELD_FACTOR = 4;

const roundTrip = (r: LoggedRequest): number => r.answered - r.sent;

/** What the spend bursts show of a queue in front of the limit; undefined when no answer was held. */
export const heldPattern = (result: ProbeResult): string | undefined => {
  const { count, windowMs } = result.limit;
  const requests = result.spend.requests;
  const quick = [...requests]
    .filter((r) => r.status !== undefined)
    .sort((a, b) => roundTrip(a) - roundTrip(b))
    .slice(0, count);
  if (quick.length === 0) return undefined;
  const quickUpTo = Math.round(Math.max(...quick.map(roundTrip)));
  const threshold = Math.max(HELD_FACTOR * quickUpTo, quickUpTo + windowMs / 4);
  const held = requests.filter((r) => r.status === undefined || roundTrip(r) > threshold);
  if (held.length === 0) return undefined;
  const answered = held.filter((r) => r.status !== undefined);
  const start = Math.min(...requests.map((r) => r.sent));
  const perWindow = new Map<number, number>();
  for (const r of answered) {
    const window = Math.floor((r.answered - start) / windowMs);
    perWindow.set(window, (perWindow.get(window) ?? 0) + 1);
  }
  const released = [...perWindow.entries()]
    .sort(([a], [b]) => a - b)
    .map(([window, n]) => `${n} in window ${window + 1}`)
    .join(', ');
  const times = answered.map(roundTrip);
  const heldFor =
    answered.length === 0
      ? ''
      : ` ${Math.round(Math.min(...times))} to ${Math.round(Math.max(...times))} ms, then answered (${released} of ${windowMs} ms after the burst)`;
  const unanswered = held.length - answered.length;
  return (
    `${quick.length} answered within ${quickUpTo} ms, but ${held.length} were held${heldFor}` +
    `${unanswered > 0 ? `; ${unanswered} never answered` : ''}, and not one 429 came: the pattern of a limiter that ` +
    `queues requests over the limit (about ${count} released per window) instead of answering 429 (SPEC.md §8 ` +
    `rule 2). The network answered the others of the same bursts within ${quickUpTo} ms, so it did not hold these; ` +
    `but a held answer cannot show that the server took the request while over the limit, so this is no FAIL`
  );
};
