// SPEC.md §8 limits: which key a request counts toward (the tenant and bucket, or what a fault says instead), and
// the Retry-After header. The algorithm per key is the server's limiter kind (limiter-kinds.ts).
import type { BucketId, Limit } from '../spec/index.ts';
import type { FaultName } from './faults.ts';
import { faultyLimitState } from './limit-faults.ts';
import { createLimitState, type LimiterKind, type LimitState } from './limiter-kinds.ts';
import type { ReferenceClient } from './options.ts';

export interface LimitedRoute {
  readonly index: number;
  readonly key: string;
  readonly bucket: BucketId;
  readonly hasPathId: boolean;
}

export interface LimiterSettings {
  readonly limits: Readonly<Record<BucketId, Limit>>;
  readonly minuteMs: number;
  readonly fault: FaultName | undefined;
  readonly faultFactor: number | undefined;
  readonly limiter: LimiterKind;
}

export type StateFor = (client: number, route: LimitedRoute, id: string | undefined) => LimitState;

/**
 * The count a fault makes the server enforce instead of the stated limit; `parts`: how many keys observability-split
 * splits it among.
 */
const enforcedCount = (
  bucket: BucketId,
  count: number,
  fault: FaultName | undefined,
  parts: number,
): number => {
  if (fault === 'observability-split' && bucket === 'observability') return Math.ceil(count / parts);
  if (fault === 'wrong-limit-execute' && bucket === 'rules-execute') return Math.ceil((count * 4) / 3);
  if (fault === 'wrong-limit-transaction' && bucket === 'transaction-event') return Math.floor(count * 0.9);
  if (fault === 'no-limit-schedule' && bucket === 'rules-schedule') return Number.POSITIVE_INFINITY;
  return count;
};

/** Who shares a limit: the tenant (§8 rule 1), or what a fault keys it by instead. */
const ownerOf = (client: ReferenceClient, fault: FaultName | undefined): string => {
  if (fault === 'limit-per-client') return `client:${client.client_id}`;
  if (fault === 'limit-shared-across-tenants') return '';
  return `tenant:${client.tenant}`;
};

/** The stated window of `bucket`'s limit, with minutes as long as the server's. */
export const windowOf = (bucket: BucketId, settings: Pick<LimiterSettings, 'limits' | 'minuteMs'>): number =>
  settings.limits[bucket].per === 'second' ? 1000 : settings.minuteMs;

/** A fresh state for one key of `route`'s bucket, with the count and algorithm a fault may change. */
export const newLimitState = (route: LimitedRoute, settings: LimiterSettings, parts = 1): LimitState => {
  const { fault, faultFactor, limiter } = settings;
  const count = enforcedCount(route.bucket, settings.limits[route.bucket].count, fault, parts);
  const windowMs = windowOf(route.bucket, settings);
  return (
    faultyLimitState(route.bucket, fault, faultFactor, limiter, count, windowMs) ??
    createLimitState(limiter, count, windowMs)
  );
};

/** Under limit-blocks-tenant: a refusal by one bucket refuses the owner everywhere until that bucket admits again. */
const blocking = (state: LimitState, owner: string, blockedUntil: Map<string, number>): LimitState => ({
  admit: (now) => {
    const until = blockedUntil.get(owner) ?? Number.NEGATIVE_INFINITY;
    if (now < until) return until - now;
    const wait = state.admit(now);
    if (wait > 0) blockedUntil.set(owner, now + wait);
    return wait;
  },
});

/** Windows the limit-penalty-box fault keeps a bucket shut after a refusal: a gateway's penalty past the window. */
const PENALTY_WINDOWS = 4;

/** Under limit-penalty-box: a refusal shuts the bucket for four windows, whatever it has admitted since. */
const penaltyBox = (state: LimitState, windowMs: number): LimitState => {
  let shutUntil = Number.NEGATIVE_INFINITY;
  return {
    admit: (now) => {
      if (now < shutUntil) return shutUntil - now;
      const wait = state.admit(now);
      if (wait <= 0) return wait;
      shutUntil = now + PENALTY_WINDOWS * windowMs;
      return shutUntil - now;
    },
  };
};

const MAX_PER_ID_WINDOWS = 10_000;

/**
 * Resolves every (client, route) pair to its limit state once, at start, so the hot path is two array reads.
 * Clients and routes that share a limit share the state object; memory is one state per tenant and bucket.
 */
export const createLimiter = (
  clients: readonly ReferenceClient[],
  routes: readonly LimitedRoute[],
  settings: LimiterSettings,
): StateFor => {
  const { fault } = settings;
  const split = fault === 'observability-separate-buckets' || fault === 'observability-split';
  const partOf = (route: LimitedRoute): string =>
    split && route.bucket === 'observability' ? route.key : route.bucket;
  const parts = routes.filter((route) => route.bucket === 'observability').length;
  const shared = new Map<string, LimitState>();
  const blockedUntil = new Map<string, number>();
  const table = clients.map((client) =>
    routes.map((route) => {
      const owner = ownerOf(client, fault);
      const key = `${owner}\n${partOf(route)}`;
      let state = shared.get(key);
      if (!state) {
        state = newLimitState(route, settings, parts);
        if (fault === 'limit-blocks-tenant') state = blocking(state, owner, blockedUntil);
        if (fault === 'limit-penalty-box' && route.bucket === 'rules-schedule')
          state = penaltyBox(state, windowOf(route.bucket, settings));
        shared.set(key, state);
      }
      return state;
    }),
  );
  const fixed: StateFor = (client, route) => table[client]![route.index]!;
  if (fault !== 'limit-per-path-id') return fixed;

  const perId = new Map<string, LimitState>();
  return (client, route, id) => {
    if (!route.hasPathId || id === undefined) return fixed(client, route, id);
    const key = `${ownerOf(clients[client]!, fault)}\n${partOf(route)}\n${id}`;
    let state = perId.get(key);
    if (!state) {
      if (perId.size >= MAX_PER_ID_WINDOWS) perId.delete(perId.keys().next().value!);
      state = newLimitState(route, settings);
      perId.set(key, state);
    }
    return state;
  };
};

/** The Retry-After value for a wait of `ms` at clock time `now`, in a window of `windowMs`; undefined for no header. */
export type RetryAfter = (ms: number, now: number, windowMs: number) => string | undefined;

/** Rounded up, so waiting this long always reaches capacity again; never 0 while limited. */
const honest = (ms: number): string => String(Math.max(1, Math.ceil(ms / 1000)));
/** At most half the real wait: a retry that honours it comes too early and is refused again. */
const halved = (ms: number): string => String(Math.floor(ms / 2000));

export const retryAfterFor = (fault: FaultName | undefined): RetryAfter => {
  switch (fault) {
    case 'retry-after-missing':
      return () => undefined;
    case 'retry-after-http-date':
      return (ms, now) => new Date(now + ms).toUTCString();
    case 'retry-after-fractional':
      // Rounded up to a tenth, and never whole, so the value stays honest yet is never an integer.
      return (ms) => {
        const seconds = Math.ceil(ms / 100) / 10;
        return (Number.isInteger(seconds) ? seconds + 0.5 : seconds).toFixed(1);
      };
    case 'retry-after-too-long':
      // An hour, as a server might say whatever the window: honest (waiting that long reaches capacity), but useless.
      return () => '3600';
    case 'retry-after-too-short':
      return halved;
    case 'retry-after-short-late':
      // Only where a window has a sixth or less left: a client whose 429s come early in the window never sees it.
      return (ms, _now, windowMs) => (ms <= windowMs / 6 ? halved(ms) : honest(ms));
    default:
      return honest;
  }
};
