// The probe's retry test (step 6 in probe.ts): a 429 whose promised wait is short enough to wait out, and the
// requests sent once it has passed, which retry-evidence.ts grades. It lives beside the probe's steps, not in them,
// because it keeps its own count and outcome across the several points of the probe that try it.
import { type Exchange, rateLimitResetSeconds } from '../../client/index.ts';
import type { BucketLimit } from '../../profile/target.ts';
import type { LoggedRequest, ObservedRequest } from '../bucket-log.ts';
import { retryAfterSeconds } from './probe-result.ts';
import { retryAfterHonour, retryTimes } from './retry-evidence.ts';

const RETRY_TEST = 'retry test';
/** What a 429 promises of when the quota is back: §8 rule 2's Retry-After, and a RateLimit field's reset time. */
const PROMISED_WAITS = [retryAfterSeconds, rateLimitResetSeconds];

/** What the retry test needs of the probe that owns it (probe-steps.ts's BucketProbe). */
export interface RetryTestProbe {
  readonly limit: BucketLimit;
  view(): readonly ObservedRequest[];
  fire(label: string): Promise<Exchange | undefined>;
  logged(send: () => Promise<unknown>): Promise<LoggedRequest[]>;
  until(at: number, why: string): Promise<void>;
}

/**
 * One more 429 whose promised wait is waited out, where none yet showed that promise short by more than a rounding
 * (the FAIL): a 429 that came near its window's end has a true wait within the tolerance, so one alone can miss a
 * promise too short, and a test whose second request went only once the true wait was over shows it short by less
 * than a rounding at most. A 429 promises in
 * its Retry-After and in its RateLimit reset time, if it has one; the shorter untested one is waited out, and only
 * when it is at most half a window: a faithful limiter's here is most of a window, so against one this costs a
 * request and no time. Until one has waited out a promise, each call tries again, as each step that waits anyway
 * calls it: a promise may be short only late in a window (where the probe is then). A wait that would end after
 * `by` (the window-end burst's time) is left for later, and so is a request admitted where a 429 was wanted, or a
 * wait of 0 s, which promises nothing to test.
 */
export class RetryTest {
  readonly #probe: RetryTestProbe;
  /** Requests sent so far, numbering their labels. */
  #sent = 0;
  #done = false;

  constructor(probe: RetryTestProbe) {
    this.#probe = probe;
  }

  async run(by: number): Promise<void> {
    if (!this.#done) this.#done = await this.#try(by);
  }

  /** One retry test: whether it has shown what one can. */
  async #try(by: number): Promise<boolean> {
    const probe = this.#probe;
    const { limit } = probe;
    const view = probe.view();
    // A promise seen short by less than a rounding is tried again: one refused past the rounding too is the FAIL
    // (half the wait), where the request after that first test came only once the true wait was over.
    const untested = PROMISED_WAITS.filter(
      (waitOf) => retryAfterHonour(view, limit, waitOf).broken === undefined,
    );
    if (untested.length === 0) return true;
    const [refusal] = await probe.logged(() => probe.fire(`${RETRY_TEST} #${++this.#sent}`));
    if (refusal?.status !== 429 || refusal.exchange === undefined) return false;
    const { exchange } = refusal;
    const promised = untested.flatMap((waitOf) => waitOf(exchange) ?? []);
    if (promised.length === 0) return true;
    const seconds = Math.min(...promised);
    const { shortAt, failAt } = retryTimes(refusal, seconds, limit);
    if (seconds * 1000 > limit.windowMs / 2) return false;
    // The window end waits for these answers too: the round trip just measured, twice for a loaded runner.
    const answeredBy = (at: number) =>
      at + Math.max(limit.windowMs / 50, 2 * (refusal.answered - refusal.sent)) <= by;
    if (!answeredBy(shortAt)) return false;
    // As soon as the promise has passed (a rounding short shows only then), and once more past a rounding.
    await probe.until(shortAt, `until the ${seconds} s the 429 promised has passed`);
    const [retry] = await probe.logged(() => probe.fire(`${RETRY_TEST} #${++this.#sent}`));
    if (retry?.status === 429 && answeredBy(failAt)) {
      await probe.until(failAt, `until a second more than the ${seconds} s the 429 promised has passed`);
      await probe.fire(`${RETRY_TEST} #${++this.#sent}`);
    }
    return seconds > 0;
  }
}
