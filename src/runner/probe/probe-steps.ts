// The steps of a bucket's probe (probe.ts runs them in order; the edge, step 2, is in probe-edge.ts, the window end's
// steps in window-end.ts): the requests each sends and when, and what each hands back. Every request goes through
// fire(), so the bucket's log holds all of them.
import { type Exchange, isSuccess } from '../../client/index.ts';
import { isHarnessError } from '../../errors.ts';
import type { BucketLimit } from '../../profile/target.ts';
import type { EndpointSpec } from '../../spec/index.ts';
import type { LoggedRequest, LogView } from '../bucket-log.ts';
import { type CheckContext, sessionOf } from '../context.ts';
import type { CallOptions, Session } from '../session.ts';
import { type EdgeFree, refusedBelowLimit } from './limit-bounds.ts';
import {
  type Burst,
  freshBurstSize,
  type ProbePlan,
  type Variant,
  type VariantResult,
} from './probe-result.ts';
import { RetryTest } from './retry-test.ts';
import { isolationBurst, type OnRefused } from './tenant-isolation.ts';
import { type Edge, edgeFreeFrom } from './window-edge.ts';

/** Beyond this, requests queue in the client and a burst stops being one. */
const MAX_AT_ONCE = 1024;
export const WINDOW_END = 'window end';
export const ROOM_BACK = 'room back';
/** The request sent at once after a burst refused below the limit. */
export const ONCE_MORE = 'once more';

/** A variant's own requests, by label: others sent beside it, and bursts still being answered, are logged meanwhile. */
const ownedBy = (variant: Variant) => (r: LoggedRequest) => r.label.startsWith(`${variant.name} #`);

interface BurstOptions {
  /** Where a fixed window would have no edge (a fresh burst). */
  readonly edgeFree?: EdgeFree;
  /** The endpoint of the i-th request; round-robin over the plan's without it. */
  readonly endpointOf?: (i: number) => EndpointSpec;
  readonly onRefused?: (refusal: LoggedRequest) => void;
  readonly afterRefused?: () => void;
}

export class BucketProbe {
  readonly #ctx: CheckContext;
  readonly #plan: ProbePlan;
  readonly limit: BucketLimit;
  readonly tenant: string;
  readonly firstByEndpoint = new Map<string, Exchange>();
  /** Answers of 401 or 403 that stood after the client's token refresh: such a request says nothing of the limit. */
  unauthorised = 0;
  /** The requests sent where every faithful limiter had room again (roomBack), in the order sent. */
  readonly roomBacks: Burst[] = [];
  #sent = 0;
  readonly #retryTest = new RetryTest(this);

  constructor(ctx: CheckContext, plan: ProbePlan) {
    this.#ctx = ctx;
    this.#plan = plan;
    this.limit = ctx.target.limitOf(plan.bucket);
    this.tenant = ctx.target.profile.tenant;
  }

  get #session(): Session {
    return sessionOf(this.#ctx);
  }

  /** A number in [0, 1) from the run's seed: where in a stretch a poll goes. */
  random(): number {
    return this.#session.random();
  }

  /** Aborted when the run ends: every wait of the probe stops then. */
  get ended(): AbortSignal {
    return this.#session.ended;
  }

  /** The run's clock: epoch ms, the time every logged request carries. */
  now(): number {
    return this.#session.clock.now();
  }

  /** Waits `ms` unannounced (a short spacing, not a wait a person should see); rejects once the run ends. */
  pause(ms: number): Promise<void> {
    return this.#session.clock.sleep(ms, this.ended);
  }

  /** Every request of ours to the bucket, in the order answered. */
  entries(): readonly LoggedRequest[] {
    return this.#session.log.entries(this.#plan.bucket);
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
      if (isHarnessError(error, 'HARNESS_TARGET')) return undefined;
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
   * the first 429 as soon as it is answered, while the rest are still under way; `afterRefused`, of a burst that drew
   * a 429, once every request of it is answered and before anything more is sent.
   */
  async burst(name: string, count: number, options: BurstOptions = {}) {
    const { edgeFree, endpointOf, onRefused, afterRefused } = options;
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
    // spendThenEdge in window-end.ts).
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
    if (requests.some((r) => r.status === 429)) afterRefused?.();
    const below = refusedBelowLimit(this.view(), this.limit, this.view(requests)) !== undefined;
    // Refused below the limit: one more request at once shows whether the refusal repeats (twice in a row decides
    // LIMIT-ADMITS-* without exclusive_tenant), or whether room was there after all (outside traffic took it).
    const onceMore = below ? await this.#onceMore(`${name}, ${ONCE_MORE}`, endpointOf?.(0)) : undefined;
    return {
      name,
      requests,
      ...(edgeFree ? { edgeFree } : {}),
      refusedBelowLimit: below,
      ...(onceMore ? { onceMore } : {}),
    } satisfies Burst;
  }

  /** One request now, to `endpoint` (the plan's first without one): the logged request, if it was sent. */
  async #onceMore(label: string, endpoint = this.#plan.endpoints[0]): Promise<LoggedRequest | undefined> {
    const logged = await this.logged(() => this.fire(label, this.#plan.options, endpoint));
    return logged.find((r) => r.label === label);
  }

  /** Waits until no request of ours to the bucket is under way. */
  async settled(): Promise<void> {
    while (this.#session.log.busy(this.#plan.bucket)) await this.pause(10);
  }

  /**
   * Waits until every request of the bucket but `besides` (the edge polls: one at a time, mostly refused, and counted
   * by the bounds where they were not) has been answered for a whole window.
   */
  async quiet(why: string, besides: readonly LoggedRequest[] = []): Promise<number> {
    await this.settled();
    const at = this.quietAt(besides);
    await this.until(at, why);
    return Math.max(at, this.now());
  }

  /** When every request of the bucket but `besides` will have been answered for a whole window. */
  quietAt(besides: readonly LoggedRequest[]): number {
    const skipped = new Set(besides);
    const answers = this.#session.log.entries(this.#plan.bucket).filter((r) => !skipped.has(r));
    const last = answers.reduce((latest, r) => Math.max(latest, r.answered), Number.NEGATIVE_INFINITY);
    return last + this.limit.windowMs + 20 + this.limit.windowMs / 100;
  }

  async until(at: number, why: string): Promise<void> {
    const ms = at - this.now();
    if (ms > 0) await this.#ctx.wait(ms, why);
    // A timer may fire a millisecond early, and a burst sent before `at` may straddle the edge it was timed after.
    while (this.now() < at) await this.pause(1);
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
    refused?: OnRefused,
  ): Promise<Burst> {
    const quietAt = await this.quiet('for the earlier bursts to be a whole window old', polls);
    // Where, from then on, a fixed window would have no edge in a stretch as wide as the spend burst (none without
    // an edge).
    const edgeFree = edge === undefined ? undefined : edgeFreeFrom(edge, this.limit.windowMs, quietAt, width);
    if (edgeFree !== undefined) await this.until(edgeFree.from, 'for the next window edge');
    // Every token the burst and what follows its 429 send, in hand (at once unless one came due for renewal
    // during the waits): a token request between them is a round trip more for a shared bucket to refill in.
    await Promise.all([this.#ctx.token(this.#plan.options.client ?? 'primary'), refused?.ready()]);
    // All to one endpoint, as a limit shared by several (Observability) is one endpoint's whole limit too, not a sum
    // of shares; but the first few to those that have answered only 429 so far (a bucket spent before the probe), so
    // that whether they are routed can be told. Three each: the network reorders a burst, and one request may arrive
    // among the ones past the limit.
    const [first, ...others] = this.#plan.endpoints;
    const unanswered = others.filter((e) => !this.firstByEndpoint.has(e.key));
    const toUnanswered = Math.min(3 * unanswered.length, this.limit.count);
    return this.burst(name, freshBurstSize(this.limit), {
      // The stretch times the burst whatever the edge; only an edge a fixed window can have made tightens a bound.
      ...(edgeFree && edge?.windowed ? { edgeFree } : {}),
      endpointOf: (i) => (i < toUnanswered ? unanswered[i % unanswered.length]! : first!),
      ...(refused ? { afterRefused: refused.send } : {}),
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
    // Renewed now if it would be due by then: a renewal's round trip would send the burst that much late.
    await this.#ctx.token(this.#plan.options.client ?? 'primary', at);
    await this.until(at, 'for the end of the window after the edge');
    const [first] = this.#plan.endpoints;
    return this.burst(WINDOW_END, this.limit.count + 1, { endpointOf: () => first! });
  }

  /**
   * After a burst that filled a window (a fresh one, or a window end's fill), one request as soon as every faithful
   * limiter has room again (the log's roomAt: bound (L) holds from then on): refused there is a refusal below the
   * limit, and the burst sends one more at once to show it repeats. A window longer than stated still holds that
   * burst's admits. Not where that is more than a window away.
   */
  async roomBack(): Promise<Burst | undefined> {
    await this.settled();
    const at = Math.max(this.#session.log.roomAt(this.#plan.bucket, this.tenant, this.limit) + 1, this.now());
    if (at - this.now() > this.limit.windowMs) return undefined;
    await this.until(at, 'for the room a window after the limit was spent');
    const [first] = this.#plan.endpoints;
    const roomBack = await this.burst(ROOM_BACK, 1, { endpointOf: () => first! });
    this.roomBacks.push(roomBack);
    return roomBack;
  }

  /** One more retry test (retry-test.ts) unless one has shown what it can; its wait must end by `by`. */
  retryTest(by = Number.POSITIVE_INFINITY): Promise<void> {
    return this.#retryTest.run(by);
  }

  async variant(variant: Variant, options: CallOptions): Promise<VariantResult> {
    const fire = (i: number) => this.fire(`${variant.name} #${i + 1}`, options, variant.endpoint);
    if (!variant.shares) {
      // One admitted proves nothing of a bucket, which may have refilled a token for it since the refusal: as many
      // at once as a shared bucket cannot refill by their answers. Counted once their token is in hand: OnRefused's
      // ready() fetched it before the fresh burst, but a short-lived one may come due for renewal since (it does
      // behind far round trips), and the renewal's round trip must come before the count, not inside the burst.
      if (options.client !== undefined) await this.#ctx.token(options.client);
      const refused = this.entries()
        .filter((r) => r.status === 429)
        .at(-1);
      const count =
        refused === undefined
          ? 1
          : isolationBurst(
              this.limit,
              this.now() - refused.sent + 3 * (refused.answered - refused.sent) + this.limit.windowMs / 10,
            );
      const requests = await this.logged(() => Promise.all(Array.from({ length: count }, (_, i) => fire(i))));
      return { variant, options, requests: requests.filter(ownedBy(variant)) };
    }
    let requests = (await this.logged(() => fire(0))).filter(ownedBy(variant));
    // Admitted though it should share the spent bucket: only a limit's worth more can prove it does not.
    if (variant.shares && requests.some((r) => isSuccess(r.status))) {
      const more = await this.logged(() =>
        Promise.all(Array.from({ length: this.limit.count }, (_, i) => fire(i + 1))),
      );
      requests = [...requests, ...more.filter(ownedBy(variant))];
    }
    return { variant, options, requests };
  }
}
