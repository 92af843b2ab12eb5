// The steps of a bucket's probe (probe.ts runs them in order): the requests each sends and when, and what each
// hands back. Every request goes through fire(), so the bucket's log holds all of them.
import { mostAdmittedInSpan } from '../../core/faithful-bounds.ts';
import { type Exchange, isSuccess, TargetError } from '../client/index.ts';
import type { EndpointSpec } from '../spec/index.ts';
import { clock, type LoggedRequest, type LogView } from './bucket-log.ts';
import type { CheckContext } from './context.ts';
import { type Edge, type EdgeFree, edgeAfter, edgeFreeFrom, refusedBelowLimit } from './limit-bounds.ts';
import {
  type Burst,
  type ProbePlan,
  retryAfterSeconds,
  retryAfterShown,
  retryToleranceMs,
  type Variant,
  type VariantResult,
} from './probe-result.ts';
import { sleep } from './progress.ts';
import { retryAfterHonour } from './retry-evidence.ts';
import type { CallOptions, Session } from './session.ts';
import type { BucketLimit } from './target.ts';

/** Beyond this, requests queue in the client and a burst stops being one. */
const MAX_AT_ONCE = 1024;
const POLL = 'edge poll';
const RETRY_TEST = 'retry test';
const WAIT_POLL = 'wait poll';
/** Requests while a Retry-After is waited out: one per sixth of a window, and one per Retry-After they draw. */
const MAX_WAIT_POLLS = 12;
export const WINDOW_END = 'window end';
const EARLY = 'capacity back early';
/** Edge polls: a bounded number, spaced finely around Retry-After, coarsely without one. */
const MAX_POLLS = 80;

interface BurstOptions {
  /** Where a fixed window would have no edge (a fresh burst). */
  readonly edgeFree?: EdgeFree;
  /** The endpoint of the i-th request; round-robin over the plan's without it. */
  readonly endpointOf?: (i: number) => EndpointSpec;
  readonly onRefused?: (refusal: LoggedRequest) => void;
}

export class BucketProbe {
  readonly #ctx: CheckContext;
  readonly #plan: ProbePlan;
  readonly limit: BucketLimit;
  readonly tenant: string;
  readonly firstByEndpoint = new Map<string, Exchange>();
  /** Answers of 401 or 403 that stood after the client's token refresh: such a request says nothing of the limit. */
  unauthorised = 0;
  #sent = 0;
  #retryTests = 0;
  #extraPolls = 0;

  constructor(ctx: CheckContext, plan: ProbePlan) {
    this.#ctx = ctx;
    this.#plan = plan;
    this.limit = ctx.target.limitOf(plan.bucket);
    this.tenant = ctx.target.profile.tenant;
  }

  get #session(): Session {
    return this.#ctx.session;
  }

  /** The bucket as the tenant's limiter sees it. */
  view(from?: readonly LoggedRequest[], own?: LogView) {
    return this.#session.log.view(this.#plan.bucket, own ?? { tenant: this.tenant }, from);
  }

  /** One request, round-robin over the plan's endpoints; a transport failure is logged, not thrown. */
  async fire(label: string, options: CallOptions = this.#plan.options, endpoint?: EndpointSpec) {
    const target = endpoint ?? this.#plan.endpoints[this.#sent++ % this.#plan.endpoints.length]!;
    try {
      const exchange = await this.#session.call(target, { ...options, label });
      if (exchange.status === 401 || exchange.status === 403) this.unauthorised += 1;
      if (exchange.status !== 429 && !this.firstByEndpoint.has(target.key))
        this.firstByEndpoint.set(target.key, exchange);
      if (isSuccess(exchange.status)) this.#session.publishAdmitted(target.key, exchange);
      return exchange;
    } catch (error) {
      if (error instanceof TargetError) return undefined;
      throw error;
    }
  }

  /** Runs `send` and returns every request the bucket's log gained meanwhile. */
  async logged(send: () => Promise<unknown>): Promise<LoggedRequest[]> {
    const before = this.#session.log.entries(this.#plan.bucket).length;
    await send();
    return this.#session.log.entries(this.#plan.bucket).slice(before);
  }

  /**
   * `count` requests at once (the connections open on the first burst and are reused after). `onRefused` hears of
   * the first 429 as soon as it is answered, while the rest are still under way.
   */
  async burst(name: string, count: number, options: BurstOptions = {}) {
    const { edgeFree, endpointOf, onRefused } = options;
    const label = `${name} #`;
    let told = false;
    const refused = (exchange: Exchange | undefined, sent: string) => {
      if (exchange?.status !== 429 || told || onRefused === undefined) return;
      told = true;
      const log = this.#session.log.entries(this.#plan.bucket);
      // Just answered, so at the log's end (it is in answer order).
      for (let i = log.length - 1; i >= 0; i--) if (log[i]!.label === sent) return onRefused(log[i]!);
    };
    // By label, not only by when they were logged: edge polls may be answered while the burst still is (see
    // spendThenEdge in probe.ts).
    const logged = await this.logged(() =>
      Promise.all(
        Array.from({ length: Math.min(count, MAX_AT_ONCE) }, (_, i) =>
          this.fire(`${label}${i + 1}`, this.#plan.options, endpointOf?.(i)).then((exchange) =>
            refused(exchange, `${label}${i + 1}`),
          ),
        ),
      ),
    );
    const requests = logged.filter((r) => r.label.startsWith(label));
    const below = refusedBelowLimit(this.view(), this.limit, this.view(requests)) !== undefined;
    return { name, requests, ...(edgeFree ? { edgeFree } : {}), refusedBelowLimit: below } satisfies Burst;
  }

  /** Waits until no request of ours to the bucket is under way. */
  async settled(): Promise<void> {
    while (this.#session.log.busy(this.#plan.bucket)) await sleep(10, this.#session.ended);
  }

  /**
   * Waits until every request of the bucket but `besides` (the edge polls: one at a time, mostly refused, and counted
   * by the bounds where they were not) has been answered for a whole window.
   */
  async quiet(why: string, besides: readonly LoggedRequest[] = []): Promise<number> {
    await this.settled();
    const at = this.quietAt(besides);
    await this.until(at, why);
    return Math.max(at, clock());
  }

  /** When every request of the bucket but `besides` will have been answered for a whole window. */
  quietAt(besides: readonly LoggedRequest[]): number {
    const skipped = new Set(besides);
    const answers = this.#session.log.entries(this.#plan.bucket).filter((r) => !skipped.has(r));
    const last = answers.reduce((latest, r) => Math.max(latest, r.answered), Number.NEGATIVE_INFINITY);
    return last + this.limit.windowMs + 20 + this.limit.windowMs / 100;
  }

  async until(at: number, why: string): Promise<void> {
    const ms = at - clock();
    if (ms > 0) await this.#ctx.wait(ms, why);
  }

  /** Requests spaced out from just before `refused`'s Retry-After says capacity returns, until one is admitted or the window has passed. */
  async edge(refused: LoggedRequest, deadline: number | undefined) {
    const given = refused.exchange && retryAfterSeconds(refused.exchange);
    const { windowMs } = this.limit;
    // Longer than a window (and its rounding up to whole seconds), a Retry-After says nothing of where the edge is
    // (every faithful limiter has one within a window, so the polls look there as they do without one), and capacity
    // back before it is no sign of an early reset (LIMIT-RETRY-AFTER-* grades the Retry-After itself).
    const seconds = given !== undefined && given * 1000 <= windowMs + 1000 ? given : undefined;
    const spacing = seconds === undefined ? windowMs / 20 : Math.min(50, Math.max(10, windowMs / 40));
    const start =
      seconds === undefined
        ? refused.answered
        : Math.min(refused.sent + (seconds - 1) * 1000 - spacing, refused.answered + windowMs);
    const stop = Math.max(deadline ?? 0, refused.answered + windowMs) + retryToleranceMs(this.limit);
    const shown = refused.exchange ? retryAfterShown(refused.exchange) : 'none';
    let found = false;
    // Polls go out while earlier ones are pending, so a failure (no token, the run's end) is kept here and thrown
    // once they settle, rather than left as a rejection nobody handles yet.
    let failure: unknown;
    const polls = await this.logged(async () => {
      const why = `until Retry-After (${shown} s, a window at most) is nearly up`;
      const end = seconds === undefined ? refused.answered + windowMs : refused.sent + seconds * 1000;
      found = await this.waitPolls(start, end, refused.sent, why);
      if (!found) await this.until(start, why);
      const pending: Promise<unknown>[] = [];
      const first = clock();
      for (let i = 0; i < MAX_POLLS && !found; i++) {
        const due = first + i * spacing;
        if (due > stop) break;
        await sleep(due - clock(), this.#session.ended);
        if (found) break;
        pending.push(
          this.fire(`${POLL} #${i + 1}`).then(
            (exchange) => {
              if (isSuccess(exchange?.status)) found = true;
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
      const admitted = this.admittedBefore(refused, seconds);
      if (admitted !== undefined) await this.backEarly(admitted, refused.sent);
    });
    // The burst after early capacity goes with the polls: like them, it is counted where it was not waited out.
    const edgePolls = polls.filter((r) =>
      [POLL, WAIT_POLL, EARLY].some((label) => r.label.startsWith(label)),
    );
    const [first] = this.view([refused]);
    return { polls: edgePolls, edge: edgeAfter(first!, this.view(edgePolls), this.view(), this.limit) };
  }

  /**
   * An edge poll admitted where a faithful limiter has no capacity yet: answered before `refused`'s Retry-After,
   * its whole seconds less one (it is rounded up), had passed since `refused` went out.
   */
  admittedBefore(refused: LoggedRequest, seconds: number | undefined): LoggedRequest | undefined {
    if (seconds === undefined || seconds < 1) return undefined;
    const log = this.#session.log.entries(this.#plan.bucket);
    const earliest = refused.sent + (seconds - 1) * 1000;
    // Only polls after `refused`: a window-end burst sent again looks for an edge anew, after earlier ones.
    const after = (r: LoggedRequest) => r.sent > refused.sent && r.answered < earliest;
    return log.find((r) => r.label.startsWith(POLL) && isSuccess(r.status) && after(r));
  }

  /**
   * Requests while a Retry-After is waited out, so that neither where to look nor the Retry-After is taken on trust:
   * one just inside each sixth of a window before `end`, where the Retry-After says capacity returns (a limiter that
   * came back early admits one; a Retry-After short in part of the window is given there), and one at the point
   * each 429's Retry-After says; all before `start`, where the edge polls begin. True when one was admitted
   * (`since`: when the refused request went out): capacity is back, and the edge polls need not wait.
   */
  async waitPolls(start: number, end: number, since: number, why: string): Promise<boolean> {
    const { windowMs } = this.limit;
    const sixth = windowMs / 6;
    const tolerance = retryToleranceMs(this.limit);
    const due = [1, 2, 3, 4, 5]
      .map((k) => end - k * sixth + windowMs / 50)
      .filter((at) => at > clock() + windowMs / 50 && at < start);
    for (let i = 0; due.length > 0 && i < MAX_WAIT_POLLS; i++) {
      due.sort((a, b) => a - b);
      await this.until(due.shift()!, why);
      const [poll] = await this.logged(() => this.fire(`${WAIT_POLL} #${i + 1}`));
      if (isSuccess(poll?.status)) {
        await this.backEarly(poll!, since);
        return true;
      }
      const seconds = poll?.exchange && retryAfterSeconds(poll.exchange);
      const retryAt = seconds === undefined ? undefined : poll!.answered + seconds * 1000 + tolerance;
      if (retryAt !== undefined && retryAt < start - tolerance) due.push(retryAt);
    }
    return false;
  }

  /**
   * Capacity back before the Retry-After's whole seconds (`since`: when the refused request went out), which no
   * faithful limiter gives. A window that reset this early resets again as soon after: a limit's worth now and once
   * more then shows two windows within one after the refusal, past bound (U).
   */
  async backEarly(admitted: LoggedRequest, since: number): Promise<void> {
    await this.burst(EARLY, this.limit.count + 1);
    await this.until(
      2 * admitted.sent - since + this.limit.windowMs / 100,
      'for a window that reset early to reset again',
    );
    await this.burst(`${EARLY}, again`, this.limit.count + 1);
  }

  /**
   * A fresh burst: once the bucket's bursts are a window old, and where a fixed window would have no edge before a
   * burst as wide as the spend burst was.
   */
  async fresh(
    name: string,
    edge: Edge | undefined,
    width: number,
    polls: readonly LoggedRequest[],
  ): Promise<Burst> {
    const quietAt = await this.quiet('for the earlier bursts to be a whole window old', polls);
    // Where, from then on, a fixed window would have no edge in a stretch as wide as the spend burst (none without
    // an edge).
    const edgeFree = edge === undefined ? undefined : edgeFreeFrom(edge, this.limit.windowMs, quietAt, width);
    if (edgeFree !== undefined) await this.until(edgeFree.from, 'for the next window edge');
    // One past what bound (S) allows at once where a fixed window's edge is ruled out: the limit plus one. All to one
    // endpoint, as a limit shared by several (Observability) is one endpoint's whole limit too, not a sum of shares;
    // but one each to those that have answered only 429 so far (a bucket spent before the probe), so that whether
    // they are routed can be told.
    const [first, ...others] = this.#plan.endpoints;
    const unanswered = others.filter((e) => !this.firstByEndpoint.has(e.key));
    return this.burst(name, mostAdmittedInSpan(this.limit, 0, true) + 1, {
      ...(edgeFree ? { edgeFree } : {}),
      endpointOf: (i) => unanswered[i] ?? first!,
    });
  }

  /**
   * When to send the window-end burst so that its answers come before a window has passed since `after`, the last
   * refusal sent before the edge: a limiter whose window is shorter than stated has opened another by then
   * and admits it, past bound (U); every faithful one admits at most the limit in all of that window.
   */
  windowEndAt(after: LoggedRequest, width: number): number {
    const { windowMs } = this.limit;
    // Never less than a tenth of the window ahead: a loaded runner's timers and event loop run late, and an answer
    // after the window leaves the window unverified. So a window a tenth short or more is what it tells apart.
    return after.sent + windowMs - Math.max(width * 1.25 + 10, windowMs / 10);
  }

  /** A limit's worth plus one at `at`, to the endpoint the fresh burst goes to (see fresh). */
  async windowEnd(at: number): Promise<Burst> {
    await this.settled();
    await this.until(at, 'for the end of the window after the edge');
    const [first] = this.#plan.endpoints;
    return this.burst(WINDOW_END, this.limit.count + 1, { endpointOf: () => first! });
  }

  /**
   * One more 429 whose Retry-After is waited out, where none yet showed it short: a 429 that came near its window's
   * end has a true wait within the tolerance, so one alone can miss a Retry-After too short. It waits only for a
   * Retry-After of at most half a window: a faithful limiter's here is most of a window, so against one this costs a
   * request and no time. False, with nothing waited, when that wait would end after `by` (the window-end burst's
   * time): the test is then left for later.
   */
  async retryTest(by = Number.POSITIVE_INFINITY): Promise<boolean> {
    if (retryAfterHonour(this.view(), this.limit).broken !== undefined) return true;
    const [refusal] = await this.logged(() => this.fire(`${RETRY_TEST} #${++this.#retryTests}`));
    if (refusal?.status !== 429 || refusal.exchange === undefined) return true;
    const seconds = retryAfterSeconds(refusal.exchange);
    if (seconds === undefined) return true;
    const wait = seconds * 1000 + retryToleranceMs(this.limit);
    if (wait > this.limit.windowMs / 2) return true;
    const at = refusal.answered + wait;
    if (at + this.limit.windowMs / 50 > by) return false;
    await this.until(at, `until Retry-After (${seconds} s) has passed`);
    await this.fire(`${RETRY_TEST} #${++this.#retryTests}`);
    return true;
  }

  /** One more edge poll, sent now. */
  async pollNow(): Promise<LoggedRequest[]> {
    return this.logged(() => this.fire(`${POLL} after the edge #${++this.#extraPolls}`));
  }

  async variant(variant: Variant, options: CallOptions): Promise<VariantResult> {
    const fire = (i: number) => this.fire(`${variant.name} #${i + 1}`, options, variant.endpoint);
    let requests = await this.logged(() => fire(0));
    // Admitted though it should share the spent bucket: only a limit's worth more can prove it does not.
    if (variant.shares && requests.some((r) => isSuccess(r.status))) {
      const more = await this.logged(() =>
        Promise.all(Array.from({ length: this.limit.count }, (_, i) => fire(i + 1))),
      );
      requests = [...requests, ...more];
    }
    return { variant, options, requests };
  }
}
