import { renewAtFor, tokenForm } from '../../core/wire.ts';
import { isHarnessError } from '../errors.ts';
import {
  type ClientCredentials,
  GRANT_TYPE,
  scopeFor,
  TOKEN_LIFETIME_SECONDS,
  TOKEN_REQUEST_CONTENT_TYPE,
} from '../spec/index.ts';
import { TokenError } from './errors.ts';
import type { Evidence, Exchange } from './evidence.ts';
import type { HttpClient } from './http.ts';

export type TokenClient = Pick<ClientCredentials, 'client_id' | 'client_secret' | 'tenant'>;

export interface TokenManagerOptions {
  authUrl: string;
  /** The target's tenant; a client's own `tenant` overrides it (the other-tenant client). */
  tenant: string;
  /** Secrets are registered with `http.redactor`, so every exchange through it is redacted. */
  http: HttpClient;
  /** Renew this long before expiry, so a token never runs out between being handed out and being used. */
  refreshMarginSeconds?: number;
  /** Milliseconds, like Date.now; injectable so tests can move time. */
  now?: () => number;
  /**
   * Keep a client's failed token request for the rest of the run and answer with it at once, so a token endpoint
   * that hangs costs one timeout, not one per check (a run sets this; a long-lived client would not).
   */
  rememberFailures?: boolean;
}

export interface IssuedToken {
  readonly token: string;
  /** The token request that produced it. */
  readonly evidence: Evidence;
}

interface Cached {
  readonly issued: IssuedToken;
  readonly renewAt: number;
}

/** The token and its lifetime, or why the answer holds no usable token. */
export const issuedToken = (exchange: Exchange): { token: string; expiresIn: unknown } | string => {
  const unusable = `answered ${exchange.status} without a usable access_token`;
  if (exchange.status !== 200) return unusable;
  if (exchange.bodyCutAt !== undefined) return `answered 200 with a body over ${exchange.bodyCutAt} bytes`;
  let body: unknown;
  try {
    body = exchange.json();
  } catch {
    return unusable;
  }
  if (typeof body !== 'object' || body === null) return unusable;
  const { access_token: token, expires_in: expiresIn } = body as Record<string, unknown>;
  return typeof token === 'string' && token !== '' ? { token, expiresIn } : unusable;
};

/** Obtains tokens per SPEC §5 and reuses each until shortly before it expires (§5 rule 5). */
export class TokenManager {
  readonly #authUrl: string;
  readonly #tenant: string;
  readonly #http: HttpClient;
  readonly #marginSeconds: number;
  readonly #now: () => number;
  readonly #cache = new Map<string, Cached>();
  readonly #inflight = new Map<string, Promise<IssuedToken>>();
  readonly #failed = new Map<string, TokenError>();
  readonly #rememberFailures: boolean;
  /** Every token this manager obtained, with its client: a request's bearer token says whose limit it spends. */
  readonly #owners = new Map<string, TokenClient>();

  constructor(options: TokenManagerOptions) {
    this.#authUrl = options.authUrl;
    this.#tenant = options.tenant;
    this.#http = options.http;
    this.#marginSeconds = options.refreshMarginSeconds ?? 30;
    this.#now = options.now ?? Date.now;
    this.#rememberFailures = options.rememberFailures ?? false;
  }

  /** A token still to be used at `validAt` (now without it): one due for renewal by then is renewed now. */
  async token(client: TokenClient, validAt?: number): Promise<string> {
    return (await this.issued(client, validAt)).token;
  }

  /** Like token(), plus the evidence of the request that obtained it. Concurrent callers share one request. */
  issued(client: TokenClient, validAt = this.#now()): Promise<IssuedToken> {
    const key = this.#key(client);
    const cached = this.#cache.get(key);
    if (cached !== undefined && Math.max(validAt, this.#now()) < cached.renewAt)
      return Promise.resolve(cached.issued);
    const failed = this.#failed.get(key);
    if (failed !== undefined) return Promise.reject(failed);
    let pending = this.#inflight.get(key);
    if (pending === undefined) {
      pending = this.#fetch(client, key).finally(() => this.#inflight.delete(key));
      this.#inflight.set(key, pending);
    }
    return pending;
  }

  /**
   * Forgets the client's cached token. With `rejected`, only if that is still the cached one: many calls that got 401
   * for the same expired token then cause one token request, not one each.
   */
  invalidate(client: TokenClient, rejected?: string): void {
    const key = this.#key(client);
    if (rejected === undefined || this.#cache.get(key)?.issued.token === rejected) this.#cache.delete(key);
  }

  /** The client a token was issued to, by this manager; undefined for any other value. */
  ownerOf(token: string): TokenClient | undefined {
    return this.#owners.get(token);
  }

  /** Exactly the SPEC §5 rule 1 request, always fresh and never cached; resolves whatever the status. */
  requestToken(client: TokenClient): Promise<Exchange> {
    this.#http.redactor.addClient(client.client_id, client.client_secret);
    const scope = scopeFor(client.tenant ?? this.#tenant);
    const body = new URLSearchParams(
      tokenForm(GRANT_TYPE, { client_id: client.client_id, scope }, client.client_secret),
    ).toString();
    return this.#http.send({
      method: 'POST',
      url: this.#authUrl,
      headers: { 'content-type': TOKEN_REQUEST_CONTENT_TYPE },
      body,
      label: `token request (${client.client_id})`,
    });
  }

  /** A failed token request, as a TokenError (a transport failure too: no token is no token), remembered if asked. */
  #failure(key: string, error: TokenError): TokenError {
    if (this.#rememberFailures) this.#failed.set(key, error);
    return error;
  }

  async #fetch(client: TokenClient, key: string): Promise<IssuedToken> {
    const requestedAt = this.#now();
    let exchange: Exchange;
    try {
      exchange = await this.requestToken(client);
    } catch (err) {
      if (!isHarnessError(err, 'HARNESS_TARGET')) throw err;
      throw this.#failure(key, new TokenError(err.message, err.evidence, undefined, { cause: err }));
    }
    const issued = issuedToken(exchange);
    if (typeof issued === 'string') {
      throw this.#failure(
        key,
        new TokenError(`token endpoint ${exchange.evidence.request.url} ${issued}`, exchange.evidence),
      );
    }
    this.#http.redactor.addToken(issued.token);
    this.#owners.set(issued.token, client);
    const result: IssuedToken = { token: issued.token, evidence: exchange.evidence };
    const renewAt = renewAtFor(requestedAt, issued.expiresIn, TOKEN_LIFETIME_SECONDS, this.#marginSeconds);
    this.#cache.set(key, { issued: result, renewAt });
    return result;
  }

  #key(client: TokenClient): string {
    return `${client.client_id}\n${scopeFor(client.tenant ?? this.#tenant)}`;
  }
}
