// SPEC.md §8 limits: which key a request counts toward (the tenant and bucket, or what a fault says instead), and
// the Retry-After header. The algorithm per key is the server's limiter kind (limiter-kinds.ts).
import type { BucketId, Limit } from '../spec/index.ts';
import type { Behaviour, RetryAfter } from './behaviour.ts';
import { behaviourOf, type FaultName } from './faults.ts';
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
  readonly behaviour: Behaviour;
  readonly faultFactor: number | undefined;
  readonly limiter: LimiterKind;
}

export type StateFor = (client: number, route: LimitedRoute, id: string | undefined) => LimitState;

/** The stated window of `bucket`'s limit, with minutes as long as the server's. */
export const windowOf = (bucket: BucketId, settings: Pick<LimiterSettings, 'limits' | 'minuteMs'>): number =>
  settings.limits[bucket].per === 'second' ? 1000 : settings.minuteMs;

/** A fresh state for one key of `route`'s bucket, with the count and algorithm a fault may change. */
export const newLimitState = (route: LimitedRoute, settings: LimiterSettings, parts = 1): LimitState => {
  const { behaviour, faultFactor: factor, limiter: kind } = settings;
  const { bucket } = route;
  const count = behaviour.enforcedCount(bucket, settings.limits[bucket].count, parts);
  const windowMs = windowOf(bucket, settings);
  return (
    behaviour.limitState({ bucket, kind, count, windowMs, factor }) ?? createLimitState(kind, count, windowMs)
  );
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
  const { behaviour } = settings;
  const split = behaviour.splitsObservability;
  const partOf = (route: LimitedRoute): string =>
    split && route.bucket === 'observability' ? route.key : route.bucket;
  const parts = routes.filter((route) => route.bucket === 'observability').length;
  const shared = new Map<string, LimitState>();
  const blockedUntil = new Map<string, number>();
  const table = clients.map((client) =>
    routes.map((route) => {
      const owner = behaviour.ownerOf(client, route.bucket);
      const key = `${owner}\n${partOf(route)}`;
      let state = shared.get(key);
      if (!state) {
        state = behaviour.keptState({
          state: newLimitState(route, settings, parts),
          bucket: route.bucket,
          owner,
          windowMs: windowOf(route.bucket, settings),
          blockedUntil,
        });
        shared.set(key, state);
      }
      return state;
    }),
  );
  const fixed: StateFor = (client, route) => table[client]![route.index]!;
  const perPathId = behaviour.limitPerPathId;
  if (perPathId === false) return fixed;

  const perId = new Map<string, LimitState>();
  return (client, route, id) => {
    const keptPerId = route.hasPathId && (perPathId === true || perPathId === route.bucket);
    if (!keptPerId || id === undefined) return fixed(client, route, id);
    const key = `${behaviour.ownerOf(clients[client]!, route.bucket)}\n${partOf(route)}\n${id}`;
    let state = perId.get(key);
    if (!state) {
      if (perId.size >= MAX_PER_ID_WINDOWS) perId.delete(perId.keys().next().value!);
      state = newLimitState(route, settings);
      perId.set(key, state);
    }
    return state;
  };
};

/** The Retry-After the server sends under `fault` (tests of the header alone). */
export const retryAfterFor = (fault: FaultName | undefined): RetryAfter => behaviourOf(fault).retryAfter;
