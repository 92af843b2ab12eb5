// The API calls the bearer checks make: on one endpoint, each once its bucket has room, retried past a 429 that says
// nothing of the token. Shared by bearer.ts and token-expiry.ts.
import {
  type CheckContext,
  type Exchange,
  inconclusive,
  type PlanItem,
  retryAfterShown,
  retryWaitMs,
  type Target,
} from '../src/runner/checks.ts';
import type { EndpointKey, EndpointSpec } from '../src/spec/index.ts';

/**
 * Bearer checks spend a few requests of this bucket before its probe, while it has room: after the probe it would
 * have none for a whole window. The probe counts them like any other request of the bucket.
 */
const BEARER_ENDPOINT: EndpointKey = 'GET /api/rules/schedule';
export const bearerEndpoint = (target: Target): EndpointSpec => target.endpoint(BEARER_ENDPOINT);

/**
 * Times a request refused with 429 is sent again: a 429 says nothing of the token, only that the tenant's limit was
 * spent, which its other integrations share (SPEC.md §8 rule 1).
 */
export const LIMITED_RETRIES = 2;

/** The plan of a check sending `requests` to the bearer endpoint, `margin` more should they be refused with 429. */
export const onBearerEndpoint =
  (id: string, requests: number, margin = 0) =>
  (target: Target): PlanItem[] => [{ key: id, endpoint: bearerEndpoint(target).key, requests, margin }];

/**
 * Sends once the bucket has room, holding it, and again after Retry-After (at most a window) while it answers 429: no
 * limit probe of the bucket runs meanwhile, whose bursts would get this request refused and count it in their windows.
 */
export const pastTheLimit = async (
  ctx: CheckContext,
  endpoint: EndpointSpec,
  label: string,
  send: () => Promise<Exchange>,
): Promise<Exchange> => {
  for (let attempt = 1; ; attempt++) {
    const exchange = await ctx.withRoom(endpoint, 1, send);
    if (exchange.status !== 429) return exchange;
    const retryAfter = `Retry-After: ${retryAfterShown(exchange)}`;
    if (attempt > LIMITED_RETRIES) {
      return inconclusive(
        `${label}: 429 ${attempt} times (${retryAfter}), so the ${endpoint.bucket} limit stayed spent, by other traffic of the tenant or a block on it`,
      );
    }
    const ms = retryWaitMs(exchange, ctx.target.limitOf(endpoint.bucket));
    if (!ctx.endsAfter(ms)) {
      return inconclusive(
        `${label}: 429 (${retryAfter}), and waiting ${Math.ceil(ms / 1000)} s to retry would pass the run's deadline`,
      );
    }
    await ctx.wait(ms, `for the Retry-After of a 429 (${label}; ${retryAfter})`);
  }
};

/** Sends `label` to the bearer endpoint with exactly `Bearer <token()>`, past the limit (see pastTheLimit). */
export const withToken = (
  ctx: CheckContext,
  label: string,
  token: () => Promise<string>,
): Promise<Exchange> => {
  const endpoint = bearerEndpoint(ctx.target);
  return pastTheLimit(ctx, endpoint, label, async () => ctx.raw(endpoint, `Bearer ${await token()}`, label));
};

export const primaryToken = (ctx: CheckContext): Promise<string> => ctx.token('primary');
