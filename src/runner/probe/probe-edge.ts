// Step 2 of a bucket's probe (see probe.ts): from a 429, where capacity comes back. Neither where to look nor the
// Retry-After is taken on trust: requests go while it is waited out, and capacity back before it is tested as an
// early reset.
import { isSuccess } from '../../client/index.ts';
import type { LoggedRequest } from '../bucket-log.ts';
import { refusedBelowLimit } from './limit-bounds.ts';
import { retryAfterSeconds, retryAfterShown, retryToleranceMs } from './probe-result.ts';
import { type BucketProbe, ONCE_MORE } from './probe-steps.ts';
import { edgeAfter } from './window-edge.ts';

const POLL = 'edge poll';
const AFTER_EDGE = `${POLL} after the edge`;
const WAIT_POLL = 'wait poll';
/** Requests while a Retry-After is waited out in each sixth of a window (see waitPolls). */
const POLLS_PER_SIXTH = 3;
/** Those, and one per Retry-After they draw. */
const MAX_WAIT_POLLS = 5 * POLLS_PER_SIXTH + 9;
const EARLY = 'capacity back early';
/** Edge polls: a bounded number, spaced finely around Retry-After, coarsely without one. */
const MAX_POLLS = 80;
/** Requests sent at once after an edge poll refused below the limit, at most. */
const MAX_ONCE_MORE = 3;

/**
 * The edge after `refusal` (step 2), and the refusal the window-end burst is timed from: the one sent last before
 * the first admitted poll, whose window holds the edge (any refusal's does for bound U, and this one leaves the
 * most of it after the edge). Only an admit sent after that refusal was answered is surely after it for bound (U),
 * and the window-end test needs one: polls go a spacing apart and last a round trip each, so behind long round
 * trips often none was. One more poll is sent then; where the edge's window had no room for it (a limit of one),
 * the refusal is the last one answered before the first admitted poll went, a round trip earlier.
 */
export const nextEdge = async (probe: BucketProbe, refusal: LoggedRequest) => {
  const seconds = refusal.exchange && retryAfterSeconds(refusal.exchange);
  const deadline =
    seconds === undefined ? undefined : refusal.answered + seconds * 1000 + retryToleranceMs(probe.limit);
  const found = await findEdge(probe, refusal, deadline);
  const { edge } = found;
  let { polls } = found;
  const admittedPoll = polls.filter((r) => isSuccess(r.status)).sort((a, b) => a.sent - b.sent)[0];
  if (edge === undefined || admittedPoll === undefined) return { polls, edge, windowEndAfter: undefined };
  const lastRefusal = (before: (r: LoggedRequest) => boolean) =>
    [refusal, ...polls]
      .filter((r) => r.status === 429 && before(r))
      .reduce<LoggedRequest | undefined>((a, b) => (a === undefined || b.sent > a.sent ? b : a), undefined);
  const surelyAfter = (after: LoggedRequest) =>
    polls.some((r) => isSuccess(r.status) && r.sent >= after.answered);
  let windowEndAfter = lastRefusal((r) => r.sent < admittedPoll.sent) ?? refusal;
  if (!surelyAfter(windowEndAfter)) polls = [...polls, ...(await pollNow(probe))];
  if (!surelyAfter(windowEndAfter))
    windowEndAfter = lastRefusal((r) => r.answered <= admittedPoll.sent) ?? windowEndAfter;
  return { polls, edge, windowEndAfter };
};

/** Requests spaced out from just before `refused`'s Retry-After says capacity returns, until one is admitted or the window has passed. */
const findEdge = async (probe: BucketProbe, refused: LoggedRequest, deadline: number | undefined) => {
  const given = refused.exchange && retryAfterSeconds(refused.exchange);
  const { windowMs } = probe.limit;
  // Longer than a window (and its rounding up to whole seconds), a Retry-After says nothing of where the edge is
  // (every faithful limiter has one within a window, so the polls look there as they do without one), and capacity
  // back before it is no sign of an early reset (LIMIT-RETRY-AFTER-* grades the Retry-After itself).
  const seconds = given !== undefined && given * 1000 <= windowMs + 1000 ? given : undefined;
  const spacing = seconds === undefined ? windowMs / 20 : Math.min(50, Math.max(10, windowMs / 40));
  const start =
    seconds === undefined
      ? refused.answered
      : Math.min(refused.sent + (seconds - 1) * 1000 - spacing, refused.answered + windowMs);
  const stop = Math.max(deadline ?? 0, refused.answered + windowMs) + retryToleranceMs(probe.limit);
  const shown = refused.exchange ? retryAfterShown(refused.exchange) : 'none';
  let found = false;
  // Polls go out while earlier ones are pending, so a failure (no token, the run's end) is kept here and thrown
  // once they settle, rather than left as a rejection nobody handles yet.
  let failure: unknown;
  const polls = await probe.logged(async () => {
    const why = `until Retry-After (${shown} s, a window at most) is nearly up`;
    const end = seconds === undefined ? refused.answered + windowMs : refused.sent + seconds * 1000;
    found = await waitPolls(probe, start, end, refused.sent, why);
    if (!found) await probe.until(start, why);
    const pending: Promise<unknown>[] = [];
    // The requests sent at once after polls refused below the limit: one pair in a row decides, a few try for it.
    const repeats = { left: MAX_ONCE_MORE };
    const first = probe.now();
    for (let i = 0; i < MAX_POLLS && !found; i++) {
      const due = first + i * spacing;
      if (due > stop) break;
      await probe.pause(due - probe.now());
      if (found) break;
      pending.push(
        pollOnceMore(probe, `${POLL} #${i + 1}`, repeats).then(
          (admitted) => {
            if (admitted) found = true;
          },
          (error: unknown) => {
            failure ??= error;
          },
        ),
      );
    }
    await Promise.all(pending);
    if (failure !== undefined) throw failure;
    // Wait polls late (a starved runner) or none: an edge poll may be the first to find capacity back early.
    const admitted = admittedBefore(probe, refused, seconds);
    if (admitted !== undefined) await backEarly(probe, admitted, refused.sent);
  });
  // The burst after early capacity goes with the polls: like them, it is counted where it was not waited out.
  const edgePolls = polls.filter((r) => [POLL, WAIT_POLL, EARLY].some((label) => r.label.startsWith(label)));
  const [first] = probe.view([refused]);
  return { polls: edgePolls, edge: edgeAfter(first!, probe.view(edgePolls), probe.view(), probe.limit) };
};

/**
 * An edge poll admitted where a faithful limiter has no capacity yet: answered before `refused`'s Retry-After,
 * its whole seconds less one (it is rounded up), had passed since `refused` went out.
 */
const admittedBefore = (
  probe: BucketProbe,
  refused: LoggedRequest,
  seconds: number | undefined,
): LoggedRequest | undefined => {
  if (seconds === undefined || seconds < 1) return undefined;
  const log = probe.entries();
  const earliest = refused.sent + (seconds - 1) * 1000;
  // Only polls after `refused`: a window-end burst sent again looks for an edge anew, after earlier ones.
  const after = (r: LoggedRequest) => r.sent > refused.sent && r.answered < earliest;
  return log.find((r) => r.label.startsWith(POLL) && isSuccess(r.status) && after(r));
};

/**
 * Requests while a Retry-After is waited out, so that neither where to look nor the Retry-After is taken on trust:
 * three in each sixth of a window before `end`, where the Retry-After says capacity returns, at points of it the
 * run's seed draws (a limiter that came back early admits one; one that fails open in a slice of its window admits
 * one that lands there, which fixed points would miss every run; a Retry-After short in part of the window is given
 * there), and one at the point each 429's Retry-After says; all before `start`, where the edge polls begin. True
 * when one was admitted (`since`: when the refused request went out): capacity is back, and the edge polls need
 * not wait.
 */
const waitPolls = async (
  probe: BucketProbe,
  start: number,
  end: number,
  since: number,
  why: string,
): Promise<boolean> => {
  const { windowMs } = probe.limit;
  const sixth = windowMs / 6;
  const tolerance = retryToleranceMs(probe.limit);
  // Inside each sixth, clear of its ends by a fiftieth of a window (a poll late by a loaded runner stays in it), one
  // in each third of what is left: thirds narrower than a twentieth of the window, so a slice that wide holds one.
  const margin = windowMs / 50;
  const third = (sixth - 2 * margin) / POLLS_PER_SIXTH;
  const due = [1, 2, 3, 4, 5]
    .flatMap((k) =>
      Array.from(
        { length: POLLS_PER_SIXTH },
        (_, j) => end - k * sixth + margin + (j + probe.random()) * third,
      ),
    )
    .filter((at) => at > probe.now() + windowMs / 50 && at < start);
  for (let i = 0; due.length > 0 && i < MAX_WAIT_POLLS; i++) {
    due.sort((a, b) => a - b);
    await probe.until(due.shift()!, why);
    const [poll] = await probe.logged(() => probe.fire(`${WAIT_POLL} #${i + 1}`));
    if (isSuccess(poll?.status)) {
      await backEarly(probe, poll!, since);
      return true;
    }
    const seconds = poll?.exchange && retryAfterSeconds(poll.exchange);
    const retryAt = seconds === undefined ? undefined : poll!.answered + seconds * 1000 + tolerance;
    if (retryAt !== undefined && retryAt < start - tolerance) due.push(retryAt);
  }
  return false;
};

/**
 * Capacity back before the Retry-After's whole seconds (`since`: when the refused request went out), which no
 * faithful limiter gives. A window that reset this early resets again as soon after: a limit's worth now and once
 * more then shows two windows within one after the refusal, past bound (U).
 */
const backEarly = async (probe: BucketProbe, admitted: LoggedRequest, since: number): Promise<void> => {
  await probe.burst(EARLY, probe.limit.count + 1);
  await probe.until(
    2 * admitted.sent - since + probe.limit.windowMs / 100,
    'for a window that reset early to reset again',
  );
  await probe.burst(`${EARLY}, again`, probe.limit.count + 1);
};

/**
 * An edge poll, and where it is refused below the limit, one more request at once (labelled as that poll's, so it
 * counts as a poll): refused again, the two are twice in a row (LIMIT-ADMITS-*), as where a limiter blocks the key for
 * a window from the request that went over. True when either was admitted.
 */
const pollOnceMore = async (
  probe: BucketProbe,
  label: string,
  repeats: { left: number },
): Promise<boolean> => {
  const exchange = await probe.fire(label);
  if (isSuccess(exchange?.status)) return true;
  if (exchange?.status !== 429 || repeats.left <= 0) return false;
  const polled = [...probe.entries()].reverse().find((r) => r.label === label);
  if (
    polled === undefined ||
    refusedBelowLimit(probe.view(), probe.limit, probe.view([polled])) === undefined
  )
    return false;
  repeats.left -= 1;
  return isSuccess((await probe.fire(`${label}, ${ONCE_MORE}`))?.status);
};

/** One more edge poll, sent now. */
const pollNow = (probe: BucketProbe): Promise<LoggedRequest[]> => {
  const sent = probe.entries().filter((r) => r.label.startsWith(AFTER_EDGE)).length;
  return probe.logged(() => probe.fire(`${AFTER_EDGE} #${sent + 1}`));
};
