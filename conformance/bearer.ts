// SPEC.md §5 rules 3-6 and the 401 and 403 rows of §7: how API endpoints treat the bearer token.
import { type Exchange, isSuccess, issuedToken } from '../src/client/index.ts';
import { clock } from '../src/runner/bucket-log.ts';
import type { CheckContext } from '../src/runner/context.ts';
import { TOKEN_ENDPOINT_KEY } from '../src/runner/counting-client.ts';
import { fail, inconclusive, skip, skipByChoice, warn } from '../src/runner/grades.ts';
import { retryAfterShown, retryWaitMs } from '../src/runner/probe-result.ts';
import type { Target } from '../src/runner/target.ts';
import type { CheckDefinition } from '../src/runner/types.ts';
import { AUTH_RULES, cite, type EndpointKey, type EndpointSpec } from '../src/spec/index.ts';
import { alterToken } from './alter-token.ts';

/**
 * Bearer checks spend a few requests of this bucket before its probe, while it has room: after the probe it would
 * have none for a whole window. The probe counts them like any other request of the bucket.
 */
const BEARER_ENDPOINT: EndpointKey = 'GET /api/rules/schedule';
const bearerEndpoint = (target: Target): EndpointSpec => target.endpoint(BEARER_ENDPOINT);

const refused = (label: string, exchange: Exchange): string => {
  const { status } = exchange;
  if (isSuccess(status)) return fail(`${label}: ${status}, the request was served`);
  // SPEC.md §7 names 401 only for an expired token; for other bad tokens RFC 6750 §3.1 says 401 too.
  if (status !== 401) return warn(`${label}: refused with ${status}, not 401 (RFC 6750 §3.1)`);
  if (!/^bearer\b/i.test(exchange.headers['www-authenticate'] ?? '')) {
    return warn(`${label}: 401 without a WWW-Authenticate: Bearer challenge (RFC 6750 §3)`);
  }
  return `${label}: 401 with a Bearer challenge`;
};

/**
 * Times a request refused with 429 is sent again: a 429 says nothing of the token, only that the tenant's limit was
 * spent, which its other integrations share (SPEC.md §8 rule 1).
 */
const LIMITED_RETRIES = 2;

/**
 * Sends once the bucket has room, holding it, and again after Retry-After (at most a window) while it answers 429: no
 * limit probe of the bucket runs meanwhile, whose bursts would get this request refused and count it in their windows.
 */
const pastTheLimit = async (
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
    if (!ctx.session.endsAfter(ms)) {
      return inconclusive(
        `${label}: 429 (${retryAfter}), and waiting ${Math.ceil(ms / 1000)} s to retry would pass the run's deadline`,
      );
    }
    await ctx.wait(ms, `for the Retry-After of a 429 (${label}; ${retryAfter})`);
  }
};

const primaryToken = (ctx: CheckContext): Promise<string> =>
  ctx.session.tokens.token(ctx.session.client('primary'));

const after = { tags: ['bearer'], lane: 'before', required: true } as const;
const onBearerEndpoint =
  (id: string, requests: number, margin = 0) =>
  (target: Target) => [{ key: id, endpoint: bearerEndpoint(target).key, requests, margin }];

/** The Authorization header a bad-token check sends, and what it is when more than the check's label says. */
interface BadAuthorization {
  readonly header: string | undefined;
  readonly label?: string;
}

const badTokenCheck = (
  id: string,
  title: string,
  label: string,
  authorization: (token: string) => BadAuthorization,
): CheckDefinition => ({
  ...after,
  id,
  // Served: FAIL (§5 rule 3); refused otherwise than RFC 6750 §3 says: WARN.
  failsWith: ['FAIL', 'WARN'],
  title,
  ...cite(AUTH_RULES.bearerHeader),
  plan: onBearerEndpoint(id, 1, LIMITED_RETRIES),
  run: async (ctx) => {
    const endpoint = bearerEndpoint(ctx.target);
    let sent = label;
    // A spent limit would answer 429 before the token is even looked at.
    const exchange = await pastTheLimit(ctx, endpoint, label, async () => {
      const bad = authorization(await primaryToken(ctx));
      sent = bad.label ?? label;
      return ctx.raw(endpoint, bad.header, sent);
    });
    return refused(sent, exchange);
  },
});

const altered = (token: string): BadAuthorization => {
  const alteration = alterToken(token);
  if (alteration === undefined) {
    return inconclusive(`the token (${token.length} characters) has no character that can be altered`);
  }
  return { header: `Bearer ${alteration.token}`, label: `altered token (${alteration.change})` };
};

export const bearerChecks = (): CheckDefinition[] => [
  badTokenCheck(
    'AUTH-BEARER-MISSING',
    'An API call without a token is refused with 401',
    'no Authorization header',
    () => ({ header: undefined }),
  ),
  badTokenCheck(
    'AUTH-BEARER-ALTERED',
    'An API call with an altered token is refused with 401',
    'altered token',
    altered,
  ),
  badTokenCheck(
    'AUTH-BEARER-TRUNCATED',
    'An API call with a truncated token is refused with 401',
    'token cut to half its length',
    (t) => ({ header: `Bearer ${t.slice(0, Math.ceil(t.length / 2))}` }),
  ),
  {
    ...after,
    id: 'AUTH-TOKEN-REUSE',
    failsWith: ['FAIL'],
    title: 'One token serves several API calls',
    ...cite(AUTH_RULES.reuse),
    plan: onBearerEndpoint('AUTH-TOKEN-REUSE', 2),
    run: async (ctx) => {
      const endpoint = bearerEndpoint(ctx.target);
      return ctx.withRoom(endpoint, 2, async () => {
        // A token just issued: one cached for long could have outlived its expires_in.
        ctx.session.tokens.invalidate(ctx.session.client('primary'));
        const authorization = `Bearer ${await primaryToken(ctx)}`;
        const statuses: number[] = [];
        for (const call of ['first', 'second']) {
          const { status } = await ctx.raw(endpoint, authorization, `${call} call with the same token`);
          if (status === 401) return fail(`the ${call} call with a token just issued got 401`);
          // Only a served call shows the token worked: a 400 or 500 to both says nothing about reuse.
          if (!isSuccess(status)) {
            return inconclusive(
              `the ${call} call with the token got ${status}, not a success, so whether the token serves several calls cannot be told`,
            );
          }
          statuses.push(status);
        }
        return `two calls with one token: ${statuses.join(', ')}`;
      });
    },
  },
  {
    ...after,
    id: 'AUTH-FORBIDDEN',
    failsWith: ['FAIL'],
    title: 'A valid token of a client lacking permission gets 403',
    ...cite(AUTH_RULES.permission),
    // Before the probes: a bucket spent by a probe could answer 429 and hide the 403.
    lane: 'before',
    plan: (target) =>
      (target.profile.clients.restricted?.lacks ?? []).map((key) => ({
        key: `forbidden:${key}`,
        endpoint: key,
        requests: 1,
        margin: LIMITED_RETRIES,
      })),
    run: async (ctx) => {
      ctx.session.client('restricted');
      // What the plan counts (see plannedFor), so every request sent is in the check's share and in --dry-run.
      const lacks = (ctx.target.profile.clients.restricted?.lacks ?? [])
        .map((key) => ctx.target.endpoint(key as EndpointKey))
        .filter((e) => ctx.target.reachable(e));
      if (lacks.length === 0) {
        return skipByChoice(
          'clients.restricted lacks no endpoint that harness may call (side_effects) with ids it can obtain',
        );
      }
      const seen: string[] = [];
      for (const endpoint of lacks) {
        // Ids are placeholders: permission is decided before the resource is looked up, and real ids come from probes.
        const ids = Object.fromEntries(endpoint.pathIds.map((name) => [name, `harness-permission-${name}`]));
        const label = `${endpoint.key} with a token lacking permission`;
        const exchange = await pastTheLimit(ctx, endpoint, label, () =>
          ctx.call(endpoint, { client: 'restricted', ids, label }),
        );
        if (exchange.status !== 403) return fail(`${label} got ${exchange.status}, not 403`);
        seen.push(`${endpoint.key}: 403`);
      }
      return seen.join('; ');
    },
  },
  {
    ...after,
    id: 'AUTH-TOKEN-EXPIRY',
    failsWith: ['FAIL'],
    title: 'A token used after expires_in gets 401, and the same request gets a new token that works',
    ...cite(AUTH_RULES.expiry),
    // Its own lane, beside every other from the start: waiting out a token lifetime is the longest part of a run,
    // and its three API calls each hold the bucket (see pastTheLimit), so no limit probe of it runs meanwhile.
    lane: 'alongside',
    slow: true,
    plan: (target) => [
      {
        key: 'AUTH-TOKEN-EXPIRY',
        endpoint: bearerEndpoint(target).key,
        requests: 3,
        margin: 3 * LIMITED_RETRIES,
      },
      {
        key: 'AUTH-TOKEN-EXPIRY:tokens',
        endpoint: TOKEN_ENDPOINT_KEY,
        requests: 2,
        margin: 2 * LIMITED_RETRIES,
      },
    ],
    run: async (ctx) => {
      const endpoint = bearerEndpoint(ctx.target);
      const client = ctx.session.client('primary');
      // A token endpoint the run already found giving no token settles this at once: SKIP, see AUTH-TOKEN-FORM.
      await ctx.session.tokens.issued(client);
      const tokenOf = async (onMissing: (message: string) => never): Promise<string> => {
        const exchange = await ctx.session.tokens.requestToken(client);
        ctx.record(exchange);
        const issued = issuedToken(exchange);
        return typeof issued === 'string' ? onMissing(`the token request ${issued}`) : issued.token;
      };
      // Tokens are asked for once the bucket is held and has room, so each is used the moment it is issued.
      const withToken = (label: string, token: () => Promise<string>) =>
        pastTheLimit(ctx, endpoint, label, async () => ctx.raw(endpoint, `Bearer ${await token()}`, label));
      // When the token's answer arrived: the server issued it no later, so a wait measured from here has it
      // certainly past its lifetime at the server, however long the token endpoint took.
      let answeredAt = 0;
      let first = '';
      const fresh = await withToken('fresh token', async () => {
        first = await tokenOf((message) => skip(`no first token (see AUTH-TOKEN-FORM): ${message}`));
        answeredAt = clock();
        return first;
      });
      if (fresh.status === 401) return fail('a fresh token got 401');
      // An endpoint that serves no one cannot tell an expired token from a live one.
      if (!isSuccess(fresh.status)) {
        return inconclusive(
          `a fresh token got ${fresh.status}, not a success, so what an expired one gets cannot be compared`,
        );
      }
      const lifetimeMs = ctx.target.tokenLifetimeSeconds * 1000;
      await ctx.wait(
        answeredAt + lifetimeMs + 1000 - clock(),
        `for the token to expire (${ctx.target.tokenLifetimeSeconds} s)`,
      );
      let usedAt = 0;
      const expired = await withToken('expired token', async () => {
        usedAt = clock();
        return first;
      });
      if (expired.status !== 401) {
        const afterMs = usedAt - answeredAt;
        return fail(
          `the token got ${expired.status}, not 401, used ${(afterMs / 1000).toFixed(1)} s after the answer that ` +
            `issued it arrived: at least ${((afterMs - lifetimeMs) / 1000).toFixed(1)} s past its ${lifetimeMs / 1000} s lifetime`,
        );
      }
      const renewed = await withToken('new token from the same request', () =>
        tokenOf((message) => fail(`after expiry, the same request failed: ${message}`)),
      );
      if (renewed.status === 401) return fail('the new token from the same request got 401');
      // Only a served call shows the new token works.
      if (!isSuccess(renewed.status)) {
        return inconclusive(
          `expired token: 401; the new token from the same request got ${renewed.status}, not a success, so whether it works cannot be told`,
        );
      }
      return `expired token: 401; new token from the same request: ${renewed.status}`;
    },
  },
];
