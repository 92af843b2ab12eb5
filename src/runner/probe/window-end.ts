// Steps 5, 5b and 7 of a bucket's probe (probe.ts): the window-end burst, timed to be answered just before a window
// has passed since the last refusal before an edge, with the window filled first where no fresh burst filled it;
// the polls while it is awaited with the bucket spent; the room-back request a window after a fill; and the
// window-end bursts sent again where one came too late to show the window's length.
import { isSuccess } from '../../client/index.ts';
import type { LoggedRequest } from '../bucket-log.ts';
import { isAdmitted } from './limit-bounds.ts';
import { nextEdge } from './probe-edge.ts';
import { type Burst, retryAfterSeconds, WINDOW_END_RETRIES, widthOf } from './probe-result.ts';
import { type BucketProbe, ROOM_BACK, WINDOW_END } from './probe-steps.ts';
import { lengthShown } from './window-length.ts';

const SPENT_POLL = 'spent poll';

/**
 * How long before a window has passed since `after` the window-end burst must go: only the answers that bound (U)
 * still lacks must come in time (the edge's admits and the fresh burst's count already), so it is when the fresh
 * burst (`like`, the same size) had that many answers. Sized by its last answer instead, a wide burst behind long
 * round trips went so early that it met a window a quarter short before that window's end.
 */
export const leadFor = (probe: BucketProbe, after: LoggedRequest, like: readonly LoggedRequest[]): number => {
  const admitted = probe.view().filter((o) => isAdmitted(o) && o.sent >= after.answered).length;
  const needed = Math.max(1, probe.limit.count + 1 - admitted);
  const start = Math.min(...like.map((r) => r.sent));
  const answers = like.map((r) => r.answered - start).sort((a, b) => a - b);
  return answers[Math.min(needed, answers.length) - 1] ?? widthOf(like);
};

/**
 * The room-back request (probe-steps.ts), and where it is the first refused twice, the limiter's window still on
 * after ours ended: where its Retry-After says it ends within half a window, its edge is found and a limit's worth
 * goes at once, so a 429 comes at that window's start, whose Retry-After (if honest) shows the window's length.
 */
export const roomBackThenNextWindow = async (probe: BucketProbe) => {
  const first = probe.roomBacks.length === 0;
  const repeated = (await probe.roomBack())?.onceMore;
  if (!first || repeated?.status !== 429 || repeated.exchange === undefined) return;
  const seconds = retryAfterSeconds(repeated.exchange);
  if (seconds === undefined || seconds * 1000 > probe.limit.windowMs / 2) return;
  const { edge } = await nextEdge(probe, repeated);
  if (edge !== undefined) await probe.burst(`${ROOM_BACK}, the next window`, probe.limit.count + 1);
};

/**
 * The window-end burst where no fresh burst comes before it: the window after the edge is filled at once first, as
 * the fresh burst fills it in step 3. Its admits count for bound (U), so the window-end burst needs one or two
 * answers in time rather than a limit's worth (500 behind 200 ms round trips take a third of a second to answer),
 * and goes that much later. `like`: a burst of the limit plus one, whose answers time the lead.
 */
export const filledWindowEnd = async (
  probe: BucketProbe,
  after: LoggedRequest,
  like: readonly LoggedRequest[],
) => {
  const firstAnswer = Math.min(...like.map((r) => r.answered)) - Math.min(...like.map((r) => r.sent));
  // Only where a whole burst and then an answer fit before the window has passed: a token bucket's edge comes
  // right after the spend, where a fill is mostly refused and only sends the window end too late.
  const fits = probe.now() + widthOf(like) + 1.25 * firstAnswer < after.sent + probe.limit.windowMs;
  if (fits) await probe.burst(`${WINDOW_END}, fill`, probe.limit.count + 1);
  // After the fill, whose admits shorten the lead.
  const at = probe.windowEndAt(after, leadFor(probe, after, like));
  // While the window end is awaited, where half a window or more of it is left (a round trip of the test must not
  // make the window end late): the fill's 429s come early in a window, with the most to wait out.
  if (fits && at - probe.now() >= probe.limit.windowMs / 2) await probe.retryTest(at);
  if (fits) await spentPolls(probe, at);
  const windowEnd = await probe.windowEnd(at);
  // The fill went at the edge, so a window too long by more than a round trip still holds it then.
  if (fits) await roomBackThenNextWindow(probe);
  return windowEnd;
};

/**
 * A limit's worth plus one at once, and the edge after its first 429 (nextEdge), polled from that 429's answer
 * rather than the burst's last: behind long round trips a burst's answers take a third of a window, and a token
 * bucket's edge comes at once. No edge without a 429.
 */
const spendThenEdge = async (probe: BucketProbe, name: string) => {
  let spending: Promise<Burst> | undefined;
  const refusal = await new Promise<LoggedRequest | undefined>((resolve) => {
    spending = probe.burst(name, probe.limit.count + 1, { onRefused: resolve });
    spending.then(
      () => resolve(undefined),
      () => resolve(undefined),
    );
  });
  const found = refusal === undefined ? undefined : await nextEdge(probe, refusal);
  // Awaited last, so a failure (the run's end) is thrown here.
  return { spend: await spending!, found };
};

interface WindowEndTry {
  /** The last refusal before the edge: the burst must be answered within a window of it. */
  readonly windowEndAfter: LoggedRequest;
  readonly windowEnd: Burst;
}

/**
 * Window-end bursts (step 7) until one shows the window's length: one that came too late (a loaded runner sent it
 * late, or it was wider than the burst that timed it), or none at all (the fresh burst was refused below the limit,
 * and the window end never shares the windows of those two attempts), shows nothing of it. Each try is a limit's
 * worth now, the edge after its first refusal as in step 2, and a filled window end. Last of all, as each costs
 * up to two windows and its traffic shares the windows the steps before judge. `counts`: the requests whose admits
 * bound (U) counts (not the sharing variants').
 */
export const windowEndsShown = async (
  probe: BucketProbe,
  first: WindowEndTry | undefined,
  counts: (r: LoggedRequest) => boolean,
) => {
  let last = first;
  let tries = first === undefined ? 0 : 1;
  const shown = (done: WindowEndTry) => {
    const log = probe.view().filter((o) => counts(o.request));
    return lengthShown(probe.limit, done.windowEndAfter, done.windowEnd.requests, log).shown;
  };
  for (let again = 0; again < WINDOW_END_RETRIES && (last === undefined || !shown(last)); again++) {
    await probe.settled();
    const { spend, found } = await spendThenEdge(probe, `${WINDOW_END}, spend`);
    const windowEndAfter = found?.windowEndAfter;
    if (windowEndAfter === undefined) break;
    last = { windowEndAfter, windowEnd: await filledWindowEnd(probe, windowEndAfter, spend.requests) };
    tries++;
  }
  return { ...last, windowEndTries: tries };
};

/**
 * While the window end is awaited, with the bucket spent by the fresh burst: one request at a point the run's seed
 * draws in each twenty-fourth of a window (a slice a twentieth wide holds one) until a tenth of a window before
 * `until`, and after one admitted, a limit's worth and one at once. A limiter that fails open in a slice of its
 * window admits them all, past (U) after the fresh burst's refusal; a faithful one admits no more than its refill.
 */
export const spentPolls = async (probe: BucketProbe, until: number): Promise<void> => {
  const { windowMs, count } = probe.limit;
  const slot = windowMs / 24;
  const from = probe.now();
  // The window end must not wait on these: each goes only where it, and a burst after it, is answered by then.
  let roundTrip = 0;
  const inTime = (at: number) => at + 4 * roundTrip + windowMs / 50 < until - windowMs / 10;
  for (let i = 0; inTime(from + (i + 1) * slot); i++) {
    await probe.until(from + (i + probe.random()) * slot, 'for the end of the window after the edge');
    const sent = probe.now();
    const exchange = await probe.fire(`${SPENT_POLL} #${i + 1}`);
    roundTrip = Math.max(roundTrip, probe.now() - sent);
    if (isSuccess(exchange?.status)) {
      if (inTime(probe.now())) await probe.burst(`${SPENT_POLL}, at once`, count + 1);
      return;
    }
  }
};
