import { apiHeaders, urlOf } from '../../core/wire.ts';
import { isHarnessError } from '../errors.ts';
import { API_CONTENT_TYPE, type Profile } from '../spec/index.ts';
import { TokenError } from './errors.ts';
import type { Exchange } from './evidence.ts';
import type { HttpClient } from './http.ts';
import type { IssuedToken, TokenClient, TokenManager } from './tokens.ts';

export interface ApiRequest {
  method: string;
  /** Relative to the base URL, ids already filled in. */
  path: string;
  query?: Record<string, string>;
  /** JSON-encoded when present. */
  body?: unknown;
  /** May override Content-Type; Authorization is always decided by the client, never taken from here. */
  headers?: Record<string, string>;
  label?: string;
}

/** What a profile's `requests` entry gives an endpoint (SPEC.md does not show query, body or headers). */
type RequestExample = NonNullable<Profile['requests']>[string];

/**
 * An endpoint's request with the profile's example query, body (a POST gets `{}` without one) and headers: the one
 * place conformance and the load pre-flight build it, so both send what the profile says.
 */
export const exampleRequest = (
  method: string,
  path: string,
  example: RequestExample | undefined,
  label: string,
): ApiRequest => ({
  method,
  path,
  ...(example?.query === undefined ? {} : { query: example.query }),
  ...(method === 'POST' ? { body: example?.body ?? {} } : {}),
  ...(example?.headers === undefined ? {} : { headers: example.headers }),
  label,
});

export interface ApiClientOptions {
  baseUrl: string;
  http: HttpClient;
  tokens: TokenManager;
}

/** Calls API endpoints per SPEC §4 and §5: bearer token and JSON content type on every call, credentials never. */
export class ApiClient {
  readonly #baseUrl: string;
  readonly #http: HttpClient;
  readonly #tokens: TokenManager;

  constructor(options: ApiClientOptions) {
    this.#baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.#http = options.http;
    this.#tokens = options.tokens;
  }

  /**
   * Sends with the client's current token. On 401 it fetches a fresh token with the same token request and retries
   * once (SPEC §5 rule 4); the result then has `refreshed` set and its evidence records the 401 and the token request.
   */
  async call(client: TokenClient, req: ApiRequest): Promise<Exchange> {
    const first = await this.#tokens.issued(client);
    const rejected = await this.raw(req, `Bearer ${first.token}`);
    if (rejected.status !== 401) return rejected;
    this.#tokens.invalidate(client, first.token);
    let fresh: IssuedToken;
    try {
      fresh = await this.#tokens.issued(client);
    } catch (err) {
      if (!isHarnessError(err, 'HARNESS_TOKEN')) throw err;
      const message = `after a 401 from ${req.method} ${req.path}: ${err.message}`;
      throw new TokenError(message, err.evidence, rejected.evidence, { cause: err });
    }
    const retry = await this.raw(req, `Bearer ${fresh.token}`);
    return retry.withRefresh(rejected.evidence, fresh.evidence);
  }

  /**
   * Sends exactly `authorization` (an altered, truncated or foreign value), or no Authorization header when it is
   * undefined. No token handling, no retry; evidence still redacts whatever credential was sent.
   */
  raw(req: ApiRequest, authorization: string | undefined): Promise<Exchange> {
    return this.#http.send({
      method: req.method,
      url: this.url(req.path, req.query),
      headers: apiHeaders(API_CONTENT_TYPE, authorization, req.headers),
      body: req.body === undefined ? undefined : JSON.stringify(req.body),
      label: req.label ?? `${req.method} ${req.path}`,
    });
  }

  url(path: string, query?: Record<string, string>): string {
    return urlOf(this.#baseUrl, path.startsWith('/') ? path : `/${path}`, query);
  }
}
