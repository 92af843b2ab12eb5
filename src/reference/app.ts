// The request listener. Order of checks on an API request: route (404/405), body (413), bearer token (401),
// permission (403), limit (429), then the endpoint (404 for an id the server never issued, else success).
// Requests refused before the limiter (401, 403) do not count toward a limit: SPEC.md §8 limits callers of the
// tenant, and a refused request never reached the endpoint. HEAD is not served (405): SPEC.md lists GET and POST.
//
// Gateway mode (limitBeforeAuth) moves the limit before the token and permission checks, as an API gateway in front
// of a service does: it counts what arrives, and leaves deciding 401/403 to a later stage. So a 403, or a token the
// server issued but that has expired, spends the tenant's limit, and a request over the limit gets 429 even when it
// would have got 403. A request with no token, or one the server never issued, names no tenant: it counts toward
// an anonymous key per route, never toward a tenant's. SPEC.md §8 allows either reading, so harness must cope with
// both.
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { ENDPOINTS, type EndpointSpec, observabilityEndpoint, type PathId } from '../spec/index.ts';
import { HANDLERS, type Handler, type HandlerContext, IdRegistry } from './handlers.ts';
import { type PreparedResponse, prepare, readBody, send } from './http.ts';
import type { JwtTokens } from './jwt.ts';
import { createLimiter, type LimitedRoute, newLimitState, windowOf } from './limiter.ts';
import type { LimitState } from './limiter-kinds.ts';
import type { ResolvedReferenceOptions } from './options.ts';
import { limitSaid, rateLimitHeaders } from './ratelimit-fields.ts';
import { Router } from './router.ts';
import { createTokenEndpoint } from './token-endpoint.ts';
import { type ExpiredTokens, type RegisteredClient, registerClients, TokenStore } from './tokens.ts';

export const TOKEN_PATH = '/oauth2/token';

interface ApiRoute extends LimitedRoute {
  readonly kind: 'api';
  readonly pathId: PathId | undefined;
  readonly handler: Handler;
}
type Target = ApiRoute | { readonly kind: 'token' };

const MISSING_TOKEN = prepare(
  401,
  { error: 'unauthorized', error_description: 'a bearer token is required' },
  { 'www-authenticate': 'Bearer' },
);
const INVALID_TOKEN = prepare(
  401,
  { error: 'invalid_token', error_description: 'the access token is unknown, altered or expired' },
  { 'www-authenticate': 'Bearer error="invalid_token"' },
);
const FORBIDDEN = prepare(
  403,
  { error: 'insufficient_scope', error_description: 'the client lacks permission for this endpoint' },
  { 'www-authenticate': 'Bearer error="insufficient_scope"' },
);
const NOT_FOUND = prepare(404, { error: 'not_found' });
const SERVER_ERROR = prepare(500, { error: 'server_error' });

/** The token of an `Authorization: Bearer <token>` header (scheme in any case), undefined for another scheme. */
const bearerToken = (header: string): string | undefined => {
  if (!header.startsWith('Bearer ')) {
    if (header.charCodeAt(6) !== 32 || header.slice(0, 6).toLowerCase() !== 'bearer') return undefined;
  }
  let start = 7;
  while (header.charCodeAt(start) === 32) start++;
  return header.slice(start);
};

/** How often a request held under limit-queues asks the limiter again. */
const HOLD_RECHECK_MS = 20;

/** Answers sync and async alike (signing and verifying JWTs is async); a bug answers 500, not an unhandled rejection. */
const sendWhenReady = (res: ServerResponse, answer: PreparedResponse | Promise<PreparedResponse>): void => {
  if (answer instanceof Promise) {
    answer.then(
      (prepared) => send(res, prepared),
      () => send(res, SERVER_ERROR),
    );
  } else send(res, answer);
};

export interface App {
  readonly listener: RequestListener;
  /** Known only once the server listens. */
  setBaseUrl(baseUrl: string): void;
  issuedTokens(): readonly string[];
}

/** `jwt`: hand out JWTs and take a token for the key its verified signature names (tokens: 'jwt'). */
export const createApp = (options: ResolvedReferenceOptions, jwt?: JwtTokens): App => {
  const { behaviour, clock, limitBeforeAuth } = options;
  const now = clock.now;
  const clients = registerClients(options.allClients);
  const expired: ExpiredTokens = behaviour.acceptsExpiredTokens
    ? 'accept'
    : limitBeforeAuth
      ? 'remember'
      : 'forget';
  const store = new TokenStore(options.tokenLifetimeSeconds * 1000, expired);
  const tokenEndpoint = createTokenEndpoint({
    clients,
    store,
    lifetimeSeconds: options.tokenLifetimeSeconds,
    behaviour,
    jwt,
  });
  /** The store's key a presented token stands for: itself when opaque, the jti of a JWT whose signature verifies. */
  const keyOf = (token: string): string | undefined | Promise<string | undefined> =>
    jwt ? jwt.keyOf(token) : token;
  const context: { baseUrl: string; ids: HandlerContext['ids'] } = {
    baseUrl: '',
    ids: { batch_id: new IdRegistry(), execution_id: new IdRegistry() },
  };

  const specs: EndpointSpec[] = [...ENDPOINTS, ...options.observability.map(observabilityEndpoint)];
  const routes = specs.map(
    (spec, index): ApiRoute => ({
      kind: 'api',
      index,
      key: spec.key,
      bucket: spec.bucket,
      hasPathId: spec.pathIds.length > 0,
      pathId: spec.pathIds[0],
      handler: HANDLERS[spec.bucket],
    }),
  );
  const router = new Router<Target>().add('POST', TOKEN_PATH, { kind: 'token' });
  for (const [i, spec] of specs.entries()) router.add(spec.method, spec.path, routes[i]!);
  const stateFor = createLimiter(options.allClients, routes, options);
  const anonymous = limitBeforeAuth ? routes.map((route) => newLimitState(route, options)) : [];
  const { retryAfter } = behaviour;
  const primary = clients.get(options.clients.primary.client_id)!;
  /** A 401 as the server sends it: under no-www-authenticate, without its challenge. */
  const withoutChallenge = (refusal: PreparedResponse): PreparedResponse => {
    if (behaviour.challenges) return refusal;
    const { 'www-authenticate': _challenge, ...headers } = refusal.headers;
    return { ...refusal, headers };
  };
  const missingToken = withoutChallenge(MISSING_TOKEN);
  const invalidToken = withoutChallenge(INVALID_TOKEN);
  const forbidden =
    behaviour.forbiddenStatus === 401
      ? prepare(
          401,
          { error: 'invalid_token', error_description: 'the client lacks permission for this endpoint' },
          { 'www-authenticate': 'Bearer error="invalid_token"' },
        )
      : FORBIDDEN;
  const limited = prepare(behaviour.limitedStatus, {
    error: 'rate_limited',
    error_description: 'rate limit for the tenant and endpoint exceeded',
  });

  const authenticate = (
    header: string | undefined,
    token: string | undefined,
    key: string | undefined,
    at: number,
  ): RegisteredClient | PreparedResponse => {
    if (header === undefined) return behaviour.servesWithoutToken ? primary : missingToken;
    if (token === undefined) return missingToken;
    const client =
      (key === undefined ? undefined : store.lookup(key, at)) ??
      (behaviour.acceptsTruncatedTokens && token.length >= 8 ? store.lookupPrefix(token, at) : undefined) ??
      (behaviour.acceptsAlteredTokens ? store.lookupAltered(token, at) : undefined);
    if (!client) return invalidToken;
    if (behaviour.singleUseTokens) store.revoke(key ?? token);
    return client;
  };

  const dialect = options.rateLimitFields ?? behaviour.rateLimitFields.dialect;
  /** `response` with the RateLimit fields of `state` at `at`, when the server sends a dialect. */
  const withFields = (
    response: PreparedResponse,
    state: LimitState,
    at: number,
    route: ApiRoute,
  ): PreparedResponse => {
    if (dialect === undefined) return response;
    const retry = response.headers['retry-after'];
    const said = limitSaid(
      options.limits[route.bucket].count,
      windowOf(route.bucket, options),
      state.left?.(at),
      typeof retry === 'string' ? retry : undefined,
    );
    const fields = rateLimitHeaders(dialect, route.bucket, behaviour.rateLimitFields.says(said));
    return { ...response, headers: { ...response.headers, ...fields } };
  };

  const unavailable = prepare(503, { error: 'rate_limited', error_description: 'limiter unavailable' });
  /** Refusals per key so far, for behaviour.otherRefusal. */
  const refusals = new WeakMap<LimitState, number>();
  /** Whether this refusal of `state` is answered 503 instead of `limited`. */
  const otherwise = (state: LimitState): boolean => {
    if (behaviour.otherRefusal === undefined) return false;
    const nth = (refusals.get(state) ?? 0) + 1;
    refusals.set(state, nth);
    return behaviour.otherRefusal.nth(nth);
  };

  const refuse = (wait: number, at: number, route: ApiRoute, state: LimitState): PreparedResponse => {
    const value = retryAfter(wait, at, windowOf(route.bucket, options));
    const other = otherwise(state);
    const refused = other ? unavailable : limited;
    const bare = value === undefined || (other && !behaviour.otherRefusal!.retryAfter);
    const refusal = bare ? refused : { ...refused, headers: { ...refused.headers, 'retry-after': value } };
    return withFields(refusal, state, at, route);
  };

  /** Gateway mode's key: the client any issued token belongs to, expired or not, else the route's anonymous key. */
  const gatewayState = (key: string | undefined, route: ApiRoute, id: string | undefined) => {
    const owner = key === undefined ? undefined : store.owner(key);
    return owner ? stateFor(owner.index, route, id) : anonymous[route.index]!;
  };

  const hostile =
    options.apiStatus === undefined
      ? undefined
      : prepare(options.apiStatus, {
          error: 'hostile',
          error_description: 'every API request gets this status',
        });

  /**
   * The limiter's wait for a request at `at`. Under limit-queues a request to the rules-status bucket over the limit
   * is held instead, and asked again every few milliseconds (on the server's clock, which tests may move) until the
   * limit admits it or its client has gone.
   */
  const admit = async (
    state: LimitState,
    at: number,
    req: IncomingMessage,
    route: ApiRoute,
  ): Promise<number> => {
    let wait = state.admit(at);
    const held = behaviour.queues === route.bucket;
    while (held && wait > 0 && !req.socket.destroyed) {
      await clock.sleep(Math.min(wait, HOLD_RECHECK_MS));
      wait = state.admit(now());
    }
    return wait;
  };

  const answer = async (
    req: IncomingMessage,
    route: ApiRoute,
    id: string | undefined,
  ): Promise<PreparedResponse> => {
    if (hostile) return hostile;
    const header = req.headers.authorization;
    const token = header === undefined ? undefined : bearerToken(header);
    const key = token === undefined ? undefined : await keyOf(token);
    // After verifying, so the limiter sees times in the order it admits requests.
    const at = now();
    let state: LimitState | undefined;
    if (limitBeforeAuth) {
      state = gatewayState(key, route, id);
      const wait = await admit(state, at, req, route);
      if (wait > 0) return refuse(wait, at, route, state);
    }
    const client = authenticate(header, token, key, at);
    if (client.kind === 'response') return client;
    if (client.lacks.size > 0 && client.lacks.has(route.key)) return forbidden;
    if (!limitBeforeAuth) {
      state = stateFor(client.index, route, id);
      const wait = await admit(state, at, req, route);
      if (wait > 0) return refuse(wait, at, route, state);
    }
    // Unknown ids are answered after auth and limit, so probing ids costs limit like any other request.
    const found = !route.pathId || (behaviour.knowsIssuedIds && context.ids[route.pathId].has(id!));
    return withFields(found ? route.handler(context, id) : NOT_FOUND, state!, at, route);
  };

  const listener: RequestListener = (req, res) => {
    const url = req.url ?? '/';
    const query = url.indexOf('?');
    const match = router.match(req.method ?? '', query === -1 ? url : url.slice(0, query));
    if (match.kind === 'miss') {
      req.resume();
      send(
        res,
        match.status === 404
          ? NOT_FOUND
          : prepare(405, { error: 'method_not_allowed' }, { allow: match.allow }),
      );
    } else if (match.target.kind === 'token') {
      readBody(req, res, true, (body) =>
        sendWhenReady(res, tokenEndpoint(req.headers['content-type'], body, now())),
      );
    } else {
      const { target, id } = match;
      readBody(req, res, false, () => sendWhenReady(res, answer(req, target, id)));
    }
  };

  return {
    listener,
    setBaseUrl: (baseUrl) => {
      context.baseUrl = baseUrl;
    },
    issuedTokens: () => store.issued(),
  };
};
