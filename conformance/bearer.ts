// SPEC.md §5 rules 3, 5 and 6 and the 401 and 403 rows of §7: how API endpoints treat the bearer token. Rule 4
// (expiry) is token-expiry.ts.
import {
  type CheckContext,
  type CheckSpec,
  type Exchange,
  fail,
  inconclusive,
  isSuccess,
  needsClient,
  needsProfile,
  type Target,
  warn,
} from '../src/runner/checks.ts';
import { AUTH_RULES, cite, type EndpointKey, type EndpointSpec } from '../src/spec/index.ts';
import { alterToken } from './alter-token.ts';
import {
  bearerEndpoint,
  LIMITED_RETRIES,
  onBearerEndpoint,
  pastTheLimit,
  primaryToken,
} from './bearer-endpoint.ts';
import { tokenExpiryCheck } from './token-expiry.ts';

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

const beforeProbes = { tags: ['bearer'], lane: 'before', required: true } as const;

/** The Authorization header a bad-token check sends, and what it is when more than the check's label says. */
interface BadAuthorization {
  readonly header: string | undefined;
  readonly label?: string;
  /** The header's value as a shell makes it from $ACCESS_TOKEN, for the reproduction (evidence shows a hash). */
  readonly written?: readonly (string | { readonly shell: string })[];
}

/** §5 rule 3: "Every API request carries the header `Authorization: Bearer <ACCESS_TOKEN>`". */
const badTokenCheck = (
  id: string,
  title: string,
  label: string,
  authorization: (token: string) => BadAuthorization,
): CheckSpec => ({
  ...beforeProbes,
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
      return ctx.raw(endpoint, bad.header, sent, bad.written);
    });
    return refused(sent, exchange);
  },
});

const altered = (token: string): BadAuthorization => {
  const alteration = alterToken(token);
  if (alteration === undefined) {
    return inconclusive(`the token (${token.length} characters) has no character that can be altered`);
  }
  // The same character changed in a fresh token: to the one chosen here, or back where a fresh token has that one.
  let at = 0;
  while (token[at] === alteration.token[at]) at++;
  const [was, now] = [token[at] ?? '', alteration.token[at] ?? ''];
  // Both are letters, digits, - or _ (alter-token.ts), which a shell takes as they are; a reproduction never quotes
  // the target's text as shell code.
  const shellSafe = /^[\w-]$/.test(was) && /^[\w-]$/.test(now);
  return {
    header: `Bearer ${alteration.token}`,
    label: `altered token (${alteration.change})`,
    ...(shellSafe && {
      written: [
        'Bearer ',
        {
          shell: `\${ACCESS_TOKEN:0:${at}}$(test "\${ACCESS_TOKEN:${at}:1}" = ${now} && echo ${was} || echo ${now})\${ACCESS_TOKEN:${at + 1}}`,
        },
      ],
    }),
  };
};

/** §5 rule 5: "a token can be reused until it expires". */
const servesTwoCalls = (ctx: CheckContext): Promise<string> => {
  const endpoint = bearerEndpoint(ctx.target);
  return ctx.withRoom(endpoint, 2, async () => {
    // A token just issued: one cached for long could have outlived its expires_in.
    ctx.invalidateToken('primary');
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
};

/** What clients.restricted lacks, as the plan counts it (see plannedFor): the endpoints harness may call. */
const lackedEndpoints = (target: Target): EndpointSpec[] =>
  (target.profile.clients.restricted?.lacks ?? [])
    .map((key) => target.endpoint(key as EndpointKey))
    .filter((endpoint) => target.reachable(endpoint));

/** §5 rule 6: "A valid token whose client credentials lack permission for the resource gets 403." */
const forbidsWhatItLacks = async (ctx: CheckContext): Promise<string> => {
  const seen: string[] = [];
  for (const endpoint of lackedEndpoints(ctx.target)) {
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
};

export const bearerChecks = (): CheckSpec[] => [
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
    (t) => {
      const half = Math.ceil(t.length / 2);
      return {
        header: `Bearer ${t.slice(0, half)}`,
        written: ['Bearer ', { shell: `\${ACCESS_TOKEN:0:${half}}` }],
      };
    },
  ),
  {
    ...beforeProbes,
    id: 'AUTH-TOKEN-REUSE',
    failsWith: ['FAIL'],
    title: 'One token serves several API calls',
    ...cite(AUTH_RULES.reuse),
    plan: onBearerEndpoint('AUTH-TOKEN-REUSE', 2),
    run: servesTwoCalls,
  },
  {
    ...beforeProbes,
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
    requires: [
      needsClient('restricted'),
      needsProfile(
        (target) => lackedEndpoints(target).length > 0,
        'clients.restricted lacks no endpoint that harness may call (side_effects) with ids it can obtain',
      ),
    ],
    run: forbidsWhatItLacks,
  },
  tokenExpiryCheck(),
];
