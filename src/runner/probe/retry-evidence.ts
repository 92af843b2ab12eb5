// What every 429 of a bucket says of its Retry-After (SPEC.md §8 rule 2, §7's 429 row): whether each carries one in
// integer seconds, and whether a request of ours sent after one had passed was admitted. Every refusal of the run is
// graded, not only the probe's first: a burst that ran on past its first 429, an edge poll, a variant, a later burst.
import { retryAfterBeyondWindow } from '../../../core/retry-after.ts';
import type { Exchange } from '../../client/index.ts';
import type { ObservedRequest } from '../bucket-log.ts';
import { isAdmitted, isRefused, type LimitWindow, mayHaveSpentRoom } from './limit-bounds.ts';

type Interval = Pick<ObservedRequest, 'sent' | 'answered'>;

import type { BucketLimit } from '../../profile/target.ts';
import { retryAfterSeconds, retryAfterShown, retryToleranceMs } from './probe-result.ts';

export interface RetryAfterForm {
  /** The 429s read, with an answer to read. */
  readonly refusals: number;
  /** The first 429 with no Retry-After, or one not in integer seconds, and why. */
  readonly malformed?: { readonly request: ObservedRequest; readonly why: string };
  /** The first 429 whose Retry-After is longer than the window (a WARN). */
  readonly beyond?: { readonly request: ObservedRequest; readonly why: string };
}

const refusalsOf = (log: readonly ObservedRequest[]) =>
  log.filter((o) => isRefused(o) && o.request.exchange !== undefined).sort((a, b) => a.answered - b.answered);

export const retryAfterForm = (log: readonly ObservedRequest[], limit: LimitWindow): RetryAfterForm => {
  const refusals = refusalsOf(log);
  let malformed: RetryAfterForm['malformed'];
  let beyond: RetryAfterForm['beyond'];
  for (const request of refusals) {
    const exchange = request.request.exchange!;
    const seconds = retryAfterSeconds(exchange);
    if (exchange.headers['retry-after'] === undefined)
      malformed ??= { request, why: 'carries no Retry-After header' };
    else if (seconds === undefined)
      malformed ??= {
        request,
        why: `has Retry-After '${retryAfterShown(exchange)}', not an integer number of seconds`,
      };
    else {
      const why = retryAfterBeyondWindow(seconds, limit.windowMs, retryAfterShown(exchange));
      if (why !== undefined) beyond ??= { request, why };
    }
  }
  return { refusals: refusals.length, ...(malformed ? { malformed } : {}), ...(beyond ? { beyond } : {}) };
};

/** A 429 and the first request of ours sent once its Retry-After (plus a margin) had passed. */
export interface RetryAfterTest {
  readonly refusal: ObservedRequest;
  readonly seconds: number;
  readonly retry: ObservedRequest;
  /** A request not refused in between, which may have taken the room the Retry-After promised. */
  readonly spender?: ObservedRequest;
}

export interface RetryAfterHonour {
  /** Refused past its Retry-After by more than a rounding, nothing in between that could have taken the room: a FAIL. */
  readonly broken?: RetryAfterTest;
  /**
   * Refused past its Retry-After, by more than the round trip explains and by less than a second: a faithful wait's
   * whole seconds rounded down (see roundedDown), where rounded up they never fall short. A WARN.
   */
  readonly short?: RetryAfterTest;
  /** Admitted past a Retry-After of at least a second: of those, the one that promised the longest wait. */
  readonly honoured?: RetryAfterTest;
  /** Refused past its Retry-After, but something else may have taken the room. */
  readonly undecided?: RetryAfterTest;
  /**
   * Admitted, but sent more than the tolerance after its Retry-After had passed (a loaded runner's timers ran late):
   * by then a Retry-After too short may have passed too, so the admit shows nothing of it.
   */
  readonly late?: RetryAfterTest;
  /** Integer Retry-Afters no longer than a window plus the tolerance: the ones harness waits out. */
  readonly waitable: number;
}

/**
 * How long after a 429's promise a refused request shows the promise short: the 429's own round trip (a gateway
 * may time the wait from the request's arrival and add the backend's time to it) and 5 ms of timers, never more
 * than the tolerance. An honest limiter's capacity is back by then: it decided within the round trip, and a retry
 * reaches it after it was sent.
 */
export const shortSlackMs = (refusal: Interval, limit: BucketLimit): number =>
  Math.min(retryToleranceMs(limit), 5 + (refusal.answered - refusal.sent));

/** Past this, a refused retry shows more than a rounding short: a whole second for whole seconds, or the tolerance. */
const roundingMs = (seconds: number, limit: BucketLimit): number =>
  seconds >= 1 ? Math.max(1000, retryToleranceMs(limit)) : retryToleranceMs(limit);

/**
 * Whether `seconds` can be a faithful wait rounded down: at least a second (0 promises nothing), and shorter than the
 * window, the longest wait a faithful limiter gives (so a per-second limit's Retry-After never is).
 */
export const roundedDown = (seconds: number, limit: LimitWindow): boolean =>
  seconds >= 1 && seconds * 1000 < limit.windowMs;

/** When a 429 promising `seconds` is tested: shown short (WARN) after `shortAt`, more than a rounding after `failAt`. */
export const retryTimes = (refusal: Interval, seconds: number, limit: BucketLimit) => {
  const promised = refusal.answered + seconds * 1000;
  const slack = shortSlackMs(refusal, limit);
  return { shortAt: promised + slack, failAt: promised + roundingMs(seconds, limit) + slack };
};

/**
 * Every 429 with an integer Retry-After the probe can wait out, tested by the first request sent after it passed
 * (plus the slack the round trip explains), and again by the first after more than a rounding more (a 401, retried
 * at once with a fresh token, is no test). Refused at the second is the FAIL's evidence, at the first only the WARN's;
 * an admit honours it only if sent within the tolerance of its passing, as a short Retry-After shows only before the
 * real wait ends, and only if it promised a wait: after `Retry-After: 0` an admit proves nothing. `waitOf` reads
 * another promise of a 429 the same way (RateLimit's `t`).
 */
export const retryAfterHonour = (
  log: readonly ObservedRequest[],
  limit: BucketLimit,
  waitOf: (exchange: Exchange) => number | undefined = retryAfterSeconds,
): RetryAfterHonour => {
  const tolerance = retryToleranceMs(limit);
  const candidates = log.filter((o) => o.status !== 401).sort((a, b) => a.sent - b.sent);
  let broken: RetryAfterTest | undefined;
  let short: RetryAfterTest | undefined;
  let honoured: RetryAfterTest | undefined;
  let undecided: RetryAfterTest | undefined;
  let late: RetryAfterTest | undefined;
  let waitable = 0;
  for (const refusal of refusalsOf(log)) {
    const seconds = waitOf(refusal.request.exchange!);
    if (seconds === undefined || seconds * 1000 > limit.windowMs + tolerance) continue;
    waitable += 1;
    const { shortAt, failAt } = retryTimes(refusal, seconds, limit);
    const retry = candidates.find((o) => o.sent >= shortAt);
    if (retry === undefined) continue;
    if (isAdmitted(retry)) {
      if (seconds === 0) continue;
      if (retry.sent > shortAt + tolerance) late ??= { refusal, seconds, retry };
      else if (honoured === undefined || seconds > honoured.seconds) honoured = { refusal, seconds, retry };
      continue;
    }
    if (!isRefused(retry)) continue;
    const spender = mayHaveSpentRoom(log, refusal, retry);
    if (spender !== undefined) {
      undecided ??= { refusal, seconds, retry, spender };
      continue;
    }
    if (retry.sent < failAt && roundedDown(seconds, limit)) short ??= { refusal, seconds, retry };
    // Tested again past the rounding: refused there too, with nothing in between that took the room, is a FAIL.
    const again = candidates.find((o) => o.sent >= failAt);
    if (again === undefined || !isRefused(again)) continue;
    if (mayHaveSpentRoom(log, refusal, again) === undefined) broken ??= { refusal, seconds, retry: again };
  }
  return {
    waitable,
    ...(broken ? { broken } : {}),
    ...(short ? { short } : {}),
    ...(honoured ? { honoured } : {}),
    ...(undecided ? { undecided } : {}),
    ...(late ? { late } : {}),
  };
};
