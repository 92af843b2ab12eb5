// SPEC.md §8 limits. Algorithm (SPEC.md does not name one): a fixed window anchored at a key's first request. The
// window opens with the first request after the previous window ended and admits `count` requests; the rest get
// 429 until it ends. Retry-After is then the exact time left, rounded up to whole seconds, so it is honest.
import type { BucketId, Limit } from '../spec/index.ts';
import type { FaultName } from './faults.ts';
import type { ReferenceClient } from './options.ts';

export interface LimitWindow {
  /** Requests admitted per window (Infinity: never limited). */
  readonly count: number;
  readonly ms: number;
  end: number;
  used: number;
}

/** 0 when admitted, otherwise the milliseconds until the window ends (always > 0). */
export const admit = (window: LimitWindow, now: number): number => {
  if (now >= window.end) {
    window.end = now + window.ms;
    window.used = 0;
  }
  if (window.used < window.count) {
    window.used++;
    return 0;
  }
  return window.end - now;
};

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
}

export type WindowFor = (client: number, route: LimitedRoute, id: string | undefined) => LimitWindow;

/** The count a fault makes the server enforce instead of the stated limit. */
const enforcedCount = (bucket: BucketId, count: number, fault: FaultName | undefined): number => {
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

const MAX_PER_ID_WINDOWS = 10_000;

/**
 * Resolves every (client, route) pair to its window once, at start, so the hot path is two array reads. Clients
 * and routes that share a limit share the window object; memory is one window per tenant and bucket.
 */
export const createLimiter = (
  clients: readonly ReferenceClient[],
  routes: readonly LimitedRoute[],
  settings: LimiterSettings,
): WindowFor => {
  const { fault } = settings;
  const partOf = (route: LimitedRoute): string =>
    fault === 'observability-separate-buckets' && route.bucket === 'observability' ? route.key : route.bucket;
  const newWindow = (route: LimitedRoute): LimitWindow => {
    const limit = settings.limits[route.bucket];
    return {
      count: enforcedCount(route.bucket, limit.count, fault),
      ms: limit.per === 'second' ? 1000 : settings.minuteMs,
      end: Number.NEGATIVE_INFINITY,
      used: 0,
    };
  };
  const shared = new Map<string, LimitWindow>();
  const table = clients.map((client) =>
    routes.map((route) => {
      const key = `${ownerOf(client, fault)}\n${partOf(route)}`;
      let window = shared.get(key);
      if (!window) {
        window = newWindow(route);
        shared.set(key, window);
      }
      return window;
    }),
  );
  const fixed: WindowFor = (client, route) => table[client]![route.index]!;
  if (fault !== 'limit-per-path-id') return fixed;

  const perId = new Map<string, LimitWindow>();
  return (client, route, id) => {
    if (!route.hasPathId || id === undefined) return fixed(client, route, id);
    const key = `${ownerOf(clients[client]!, fault)}\n${partOf(route)}\n${id}`;
    let window = perId.get(key);
    if (!window) {
      if (perId.size >= MAX_PER_ID_WINDOWS) perId.delete(perId.keys().next().value!);
      window = newWindow(route);
      perId.set(key, window);
    }
    return window;
  };
};

/** The Retry-After value for a wait of `ms` at clock time `now`; undefined for no header. */
export type RetryAfter = (ms: number, now: number) => string | undefined;

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
    case 'retry-after-too-short':
      // At most half the real wait: a retry that honours it still lands inside the window.
      return (ms) => String(Math.floor(ms / 2000));
    default:
      // Rounded up, so waiting this long always reaches the window's end; never 0 while limited.
      return (ms) => String(Math.max(1, Math.ceil(ms / 1000)));
  }
};
