// SPEC.md §5 rule 4: "A token is valid for 3600 seconds. After that, API calls return 401; the client requests a new
// token with the same request." Waits out a real token lifetime, so it needs --slow.
import {
  type CheckContext,
  type CheckSpec,
  fail,
  inconclusive,
  isSuccess,
  issuedToken,
  needsToken,
  skip,
  TOKEN_ENDPOINT_KEY,
} from '../src/runner/checks.ts';
import { AUTH_RULES, cite } from '../src/spec/index.ts';
import { bearerEndpoint, LIMITED_RETRIES, withToken } from './bearer-endpoint.ts';

/** A token the primary client's request gets now, or `onMissing` saying why there is none. */
const newToken = async (ctx: CheckContext, onMissing: (message: string) => never): Promise<string> => {
  const exchange = await ctx.requestToken('primary');
  ctx.record(exchange);
  const issued = issuedToken(exchange);
  return typeof issued === 'string' ? onMissing(`the token request ${issued}`) : issued.token;
};

interface IssuedToken {
  readonly token: string;
  /**
   * When the token's answer arrived: the server issued it no later, so a wait measured from here has it certainly
   * past its lifetime at the server, however long the token endpoint took.
   */
  readonly answeredAt: number;
}

/** A token just issued serves a call; asked for once the bucket is held and has room, so it is used at once. */
const freshTokenServes = async (ctx: CheckContext): Promise<IssuedToken> => {
  let issued: IssuedToken = { token: '', answeredAt: 0 };
  const fresh = await withToken(ctx, 'fresh token', async () => {
    const token = await newToken(ctx, (message) => skip(`no first token (see AUTH-TOKEN-FORM): ${message}`));
    issued = { token, answeredAt: ctx.now() };
    return token;
  });
  if (fresh.status === 401) return fail('a fresh token got 401');
  // An endpoint that serves no one cannot tell an expired token from a live one.
  if (!isSuccess(fresh.status)) {
    return inconclusive(
      `a fresh token got ${fresh.status}, not a success, so what an expired one gets cannot be compared`,
    );
  }
  return issued;
};

/** "After that, API calls return 401": the same token, once its lifetime has passed at the server. */
const expiredTokenRefused = async (ctx: CheckContext, { token, answeredAt }: IssuedToken): Promise<void> => {
  const lifetimeMs = ctx.target.tokenLifetimeSeconds * 1000;
  await ctx.wait(
    answeredAt + lifetimeMs + 1000 - ctx.now(),
    `for the token to expire (${ctx.target.tokenLifetimeSeconds} s)`,
  );
  let usedAt = 0;
  const expired = await withToken(ctx, 'expired token', async () => {
    usedAt = ctx.now();
    return token;
  });
  if (expired.status !== 401) {
    const afterMs = usedAt - answeredAt;
    fail(
      `the token got ${expired.status}, not 401, used ${(afterMs / 1000).toFixed(1)} s after the answer that ` +
        `issued it arrived: at least ${((afterMs - lifetimeMs) / 1000).toFixed(1)} s past its ${lifetimeMs / 1000} s lifetime`,
    );
  }
};

/** "The client requests a new token with the same request": and the token it gets works. */
const sameRequestRenews = async (ctx: CheckContext): Promise<string> => {
  const renewed = await withToken(ctx, 'new token from the same request', () =>
    newToken(ctx, (message) => fail(`after expiry, the same request failed: ${message}`)),
  );
  if (renewed.status === 401) return fail('the new token from the same request got 401');
  // Only a served call shows the new token works.
  if (!isSuccess(renewed.status)) {
    return inconclusive(
      `expired token: 401; the new token from the same request got ${renewed.status}, not a success, so whether it works cannot be told`,
    );
  }
  return `expired token: 401; new token from the same request: ${renewed.status}`;
};

export const tokenExpiryCheck = (): CheckSpec => ({
  id: 'AUTH-TOKEN-EXPIRY',
  failsWith: ['FAIL'],
  title: 'A token used after expires_in gets 401, and the same request gets a new token that works',
  ...cite(AUTH_RULES.expiry),
  tags: ['bearer'],
  // Its own lane, beside every other from the start: waiting out a token lifetime is the longest part of a run,
  // and its three API calls each hold the bucket (see pastTheLimit), so no limit probe of it runs meanwhile.
  lane: 'alongside',
  required: true,
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
  // A token endpoint the run already found giving no token settles this at once: SKIP, see AUTH-TOKEN-FORM.
  requires: [needsToken('primary')],
  run: async (ctx) => {
    await expiredTokenRefused(ctx, await freshTokenServes(ctx));
    return sameRequestRenews(ctx);
  },
});
