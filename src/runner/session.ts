// Run-wide state shared by every check: one HTTP client (so one redactor knows every secret), one token manager,
// memoised results (a bucket is probed once; many checks grade the observations), and the path ids in use.

import { setMaxListeners } from 'node:events';
import { atPointer } from '../../core/pointer.ts';
import { withPathIds } from '../../core/wire.ts';
import {
  ApiClient,
  type ApiRequest,
  type Exchange,
  exampleRequest,
  type HttpClientOptions,
  isSuccess,
  type TokenClient,
  type TokenError,
  TokenManager,
} from '../client/index.ts';
import { type Clock, REAL_CLOCK } from '../clock.ts';
import { teachProfile } from '../profile/secrets.ts';
import type { Target } from '../profile/target.ts';
import type { BucketId, ClientRole, EndpointKey, EndpointSpec, PathId } from '../spec/index.ts';
import type { BucketLog } from './bucket-log.ts';
import type { RequestBudget } from './budget.ts';
import { CountingHttpClient, endpointMatcher } from './counting-client.ts';
import type { CheckEvent } from './events.ts';
import { skip, skipByChoice } from './grades.ts';
import { newSeed, seededRandom } from './seeded-random.ts';

export interface CallOptions {
  client?: ClientRole;
  /** Path ids to use instead of the profile's. */
  ids?: Partial<Record<PathId, string>>;
  label?: string;
}

/** How a session reaches its target and keeps time, all fixed when it is made. */
export interface SessionOptions {
  readonly events?: { emit(event: CheckEvent): void };
  /** How to reach the target: TLS, proxy, request timeout, and what carries requests (a test's simulated network). */
  readonly network?: Pick<HttpClientOptions, 'tls' | 'proxy' | 'requestTimeoutMs' | 'transport'>;
  readonly budget?: RequestBudget;
  /** Draws where in a window the probes' wait polls go (recorded in the report: `--seed` repeats them). */
  readonly seed?: number;
  /** Every time the run reads and every wait it makes (the real clock unless given: a test's virtual one). */
  readonly clock?: Clock;
  /** When the run's deadline passes, in the clock's time (none unless given). */
  readonly deadlineAt?: number;
  /** The arguments by which `harness replay` reaches this target again (none in-process). */
  readonly replayArguments?: readonly string[];
}

/** Why a check that needs a token did not run. */
export const noTokenReason = (error: TokenError): string =>
  `no token: see AUTH-TOKEN-FORM (${error.message})`;

export class Session {
  readonly http: CountingHttpClient;
  /** Numbers in [0, 1) from the run's seed. */
  readonly random: () => number;
  readonly tokens: TokenManager;
  readonly api: ApiClient;
  readonly #memo = new Map<string, Promise<unknown>>();
  /** Per bucket, when its current holder is done (see holding()). */
  readonly #holds = new Map<BucketId, Promise<void>>();
  /** Responses an endpoint admitted, published as probes get them, so ids can come from them without extra calls. */
  readonly #admitted = new Map<
    EndpointKey,
    { exchanges: Exchange[]; listeners: (() => void)[]; done: boolean }
  >();
  /** Endpoints whose bucket probe runs in this session and will publish admitted responses. */
  readonly probed = new Set<EndpointKey>();
  readonly #end = new AbortController();
  readonly events: { emit(event: CheckEvent): void };
  readonly seed: number;
  readonly clock: Clock;
  readonly deadlineAt: number;
  readonly replayArguments: readonly string[] | undefined;

  constructor(
    readonly target: Target,
    options: SessionOptions = {},
  ) {
    this.events = options.events ?? { emit: () => undefined };
    this.seed = options.seed ?? newSeed();
    this.clock = options.clock ?? REAL_CLOCK;
    this.deadlineAt = options.deadlineAt ?? Number.POSITIVE_INFINITY;
    this.replayArguments = options.replayArguments;
    this.random = seededRandom(this.seed);
    this.http = new CountingHttpClient(
      endpointMatcher(target),
      (key) => target.endpoints.find((e) => e.key === key)?.bucket,
      (req) => {
        const token = /^bearer +(.+)$/i.exec(req.headers?.authorization ?? '')?.[1];
        const owner = token === undefined ? undefined : this.tokens.ownerOf(token);
        return owner && { tenant: owner.tenant ?? target.profile.tenant, clientId: owner.client_id };
      },
      this.#end.signal,
      { ...options.network, clock: this.clock },
      options.budget,
    );
    // Every running check and every wait listens for the run's end: many at once is the design, not a leak.
    setMaxListeners(0, this.#end.signal);
    // Registered before any traffic, so even the first request's evidence is redacted.
    teachProfile(this.http.redactor, target.profile);
    this.tokens = new TokenManager({
      authUrl: target.profile.auth_url,
      tenant: target.profile.tenant,
      http: this.http,
      rememberFailures: true,
      now: this.clock.now,
    });
    this.api = new ApiClient({ baseUrl: target.profile.base_url, http: this.http, tokens: this.tokens });
  }

  /**
   * Tells the run's listeners, every string of every event hidden as the redactor knows it: a message, a wait's
   * reason or a note can quote the profile, and an event type added later is covered without a line here. The report
   * gets its own pass when it is built (runner.ts): these events reach the terminal while checks run, before any
   * report exists, and the report holds what no event carried (the target, labels, reproductions); neither pass
   * stands in for the other.
   */
  emit(event: CheckEvent): void {
    this.events.emit(this.http.redactor.within(event) as CheckEvent);
  }

  /** A deliberate wait, told to the listeners; it ends early (rejecting) when the run does. */
  async wait(id: string, ms: number, why: string): Promise<void> {
    this.emit({ type: 'wait-started', id, ms, why });
    try {
      await this.clock.sleep(ms, this.ended);
    } finally {
      this.emit({ type: 'wait-ended', id });
    }
  }

  client(role: ClientRole): TokenClient {
    const client = this.target.profile.clients[role];
    if (client === undefined) return skipByChoice(`the profile has no clients.${role}`);
    return client;
  }

  /**
   * Runs `work` with the bucket to itself among the holders: a probe holds its bucket throughout, a check that needs
   * room for a few requests holds it while it waits and sends, so neither spends what the other counted on.
   */
  holding<T>(bucket: BucketId, work: () => Promise<T>): Promise<T> {
    const previous = this.#holds.get(bucket) ?? Promise.resolve();
    const turn = previous.then(work);
    this.#holds.set(
      bucket,
      turn.then(
        () => undefined,
        () => undefined,
      ),
    );
    return turn;
  }

  /** Runs `produce` once per key for the whole session; later callers share its result (or its failure). */
  once<T>(key: string, produce: () => Promise<T>): Promise<T> {
    let pending = this.#memo.get(key) as Promise<T> | undefined;
    if (pending === undefined) {
      pending = produce();
      this.#memo.set(key, pending);
    }
    return pending;
  }

  publishAdmitted(key: EndpointKey, exchange: Exchange): void {
    const entry = this.#entry(key);
    entry.exchanges.push(exchange);
    for (const listener of entry.listeners.splice(0)) listener();
  }

  /** The probe of `key` has spent its limit: no more admitted responses will be published for it. */
  probeDone(key: EndpointKey): void {
    const entry = this.#entry(key);
    entry.done = true;
    for (const listener of entry.listeners.splice(0)) listener();
  }

  /** The first `count` responses `endpoint` admitted: from its probe when one runs in this session, else called. */
  async admittedResponses(endpoint: EndpointSpec, count: number): Promise<readonly Exchange[]> {
    const entry = this.#entry(endpoint.key);
    if (this.probed.has(endpoint.key)) {
      while (entry.exchanges.length < count && !entry.done) {
        await new Promise<void>((resolve) => entry.listeners.push(resolve));
      }
    } else {
      for (let i = entry.exchanges.length; i < count; i++) {
        const exchange = await this.once(`admitted:${endpoint.key}:${i}`, () => this.call(endpoint));
        if (!isSuccess(exchange.status)) break;
        if (!entry.exchanges.includes(exchange)) entry.exchanges.push(exchange);
      }
    }
    return entry.exchanges.slice(0, count);
  }

  async #ids(name: PathId, count: number): Promise<string[]> {
    const source = this.target.profile.ids?.[name];
    if (source === undefined)
      return skipByChoice(`the profile does not say where ${name} comes from (ids.${name})`);
    if (source.value !== undefined) return [source.value];
    const from = this.target.endpoint(source.from as EndpointKey);
    if (!this.target.mayCall(from))
      return skipByChoice(`${name} comes from ${from.key}, which side_effects forbids calling`);
    // Without a token nothing is admitted; say so (a SKIP naming AUTH-TOKEN-FORM) rather than "no id came back".
    await this.tokens.issued(this.client('primary'));
    const values = (await this.admittedResponses(from, count))
      .map((exchange) => jsonPointer(exchange, source.pointer ?? ''))
      .filter((value) => typeof value === 'string' || typeof value === 'number')
      .map(String);
    if (values.length === 0)
      return skip(`${from.key} admitted no response with a ${name} at ${source.pointer}`);
    return values;
  }

  /** A second id the server itself issued (a made-up one might be refused as unknown rather than limited). */
  async otherPathId(name: PathId): Promise<string> {
    const [first, other] = await this.#ids(name, 2);
    if (other === undefined || other === first)
      return skip(`the target gave no second ${name} to compare with`);
    return other;
  }

  /** The value of a path id, as the profile says to obtain it. */
  pathId(name: PathId): Promise<string> {
    return this.once(`id:${name}`, async () => (await this.#ids(name, 1))[0]!);
  }

  async path(endpoint: EndpointSpec, ids: Partial<Record<PathId, string>> = {}): Promise<string> {
    const values: Record<string, string> = {};
    for (const name of endpoint.pathIds) values[name] = ids[name] ?? (await this.pathId(name));
    return withPathIds(endpoint.path, values);
  }

  /** The endpoint's request as the profile describes it (body, query, headers), path ids filled in. */
  async request(endpoint: EndpointSpec, options: Omit<CallOptions, 'client'> = {}): Promise<ApiRequest> {
    return exampleRequest(
      endpoint.method,
      await this.path(endpoint, options.ids),
      this.target.profile.requests?.[endpoint.key],
      options.label ?? endpoint.key,
    );
  }

  /** Calls an API endpoint as the profile describes it, with a valid token of the given client. */
  async call(endpoint: EndpointSpec, options: CallOptions = {}): Promise<Exchange> {
    if (!this.target.mayCall(endpoint)) skipByChoice(`side_effects forbids calling ${endpoint.key}`);
    const client = this.client(options.client ?? 'primary');
    return this.api.call(client, await this.request(endpoint, options));
  }

  /** Every API request of the run, by bucket (see bucket-log.ts). */
  get log(): BucketLog {
    return this.http.log;
  }

  /** Whether the run is still on after `ms` more: a wait that is not can only end the check INCONCLUSIVE. */
  endsAfter(ms: number): boolean {
    return this.clock.now() + ms < this.deadlineAt;
  }

  /** Aborts once the run is over (its deadline passed): waits end, and nothing more is sent. */
  get ended(): AbortSignal {
    return this.#end.signal;
  }

  /**
   * Ends the run now: every wait and request in flight is cut short, and checks still running must not send more
   * (their verdict is already settled as INCONCLUSIVE by the runner).
   */
  async end(reason: string): Promise<void> {
    this.#end.abort(reason);
    await this.http.destroy();
  }

  close(): Promise<void> {
    return this.ended.aborted ? this.http.destroy() : this.http.close();
  }

  #entry(key: EndpointKey) {
    let entry = this.#admitted.get(key);
    if (entry === undefined) {
      entry = { exchanges: [], listeners: [], done: false };
      this.#admitted.set(key, entry);
    }
    return entry;
  }
}

/** The value at `pointer` in the response's JSON body; undefined when the body is not JSON. */
const jsonPointer = (exchange: Exchange, pointer: string): unknown => {
  try {
    return atPointer(exchange.json(), pointer);
  } catch (error) {
    if (error instanceof SyntaxError) return undefined;
    throw error;
  }
};
