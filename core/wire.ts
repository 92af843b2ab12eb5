// What harness's requests look like on the wire, shared by k6's VUs (auth.ts, request.ts) and harness's own client
// in Node (src/client, the pre-flight, the conformance session), so both send the same requests. Pure TypeScript:
// k6 has no URLSearchParams.
import type { K6TokenRequest } from './plan.ts';

/** The part of load/lib/spec.generated.json (src/spec/export.ts writes it from src/spec) the k6 scripts read. */
export interface K6Spec {
  readonly token: { readonly grantType: string; readonly lifetimeSeconds: number };
  /** SPEC.md §8 rule 2: Retry-After is integer seconds. */
  readonly retryAfterPattern: string;
}

/** The most of a token answer k6 uses, the cap harness's own client puts on a body (DEFAULT_MAX_BODY_BYTES). */
export const MAX_TOKEN_BODY_BYTES = 64 * 1024;

/** SPEC.md §4 "Token endpoint payload", form fields in order. */
export const tokenForm = (
  grantType: string,
  client: K6TokenRequest,
  secret: string,
): Record<string, string> => ({
  grant_type: grantType,
  client_id: client.client_id,
  client_secret: secret,
  scope: client.scope,
});

/**
 * When to renew a token requested at `now`: `marginSeconds` before it expires, or halfway through a lifetime
 * shorter than twice that (a test server's), lest it be renewed on every call. An answer without a usable
 * `expires_in` is taken at SPEC.md's lifetime: the conformance checks, not the renewal, grade that answer.
 */
export const renewAtFor = (
  now: number,
  expiresIn: unknown,
  specLifetimeSeconds: number,
  marginSeconds = 30,
) => {
  const lifetime =
    typeof expiresIn === 'number' && Number.isFinite(expiresIn) && expiresIn > 0
      ? expiresIn
      : specLifetimeSeconds;
  return now + (lifetime - Math.min(marginSeconds, lifetime / 2)) * 1000;
};

/** One name or value as URLSearchParams writes it (application/x-www-form-urlencoded): space as `+`. */
const formEncode = (text: string) =>
  encodeURIComponent(text)
    .replace(/[!'()~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%20/g, '+');

/** A query string exactly as URLSearchParams writes it, for k6, which has none. */
export const formEncoded = (pairs: Readonly<Record<string, string>>): string =>
  Object.entries(pairs)
    .map(([name, value]) => `${formEncode(name)}=${formEncode(value)}`)
    .join('&');

/** A path template (`/status/{batch_id}`) with each id it names filled in, percent-encoded. */
export const withPathIds = (path: string, ids: Readonly<Record<string, string>>): string =>
  Object.entries(ids).reduce(
    (filled, [name, value]) => filled.replace(`{${name}}`, encodeURIComponent(value)),
    path,
  );

/**
 * An API request's headers: `contentType` unless the profile's headers for the endpoint (`requests.*.headers`) name
 * another, those headers, and Authorization from `authorization` alone, never from the profile. Names lower-cased.
 */
export const apiHeaders = (
  contentType: string,
  authorization: string | undefined,
  extra: Readonly<Record<string, string>> = {},
): Record<string, string> => {
  const headers: Record<string, string> = { 'content-type': contentType };
  for (const [name, value] of Object.entries(extra)) headers[name.toLowerCase()] = value;
  delete headers.authorization;
  if (authorization !== undefined) headers.authorization = authorization;
  return headers;
};

/** base_url (trailing slashes dropped), the path, and the query when there is one. */
export const urlOf = (baseUrl: string, path: string, query?: Readonly<Record<string, string>>): string => {
  const search = query === undefined ? '' : formEncoded(query);
  return `${baseUrl.replace(/\/+$/, '')}${path}${search === '' ? '' : `?${search}`}`;
};

/** The URL of endpoint `key` (`GET /path/{id}`) with its path ids and the profile's query. */
export const apiUrl = (
  baseUrl: string,
  key: string,
  ids: Readonly<Record<string, string>>,
  query: Readonly<Record<string, string>> | undefined,
): string => urlOf(baseUrl, withPathIds(key.slice(key.indexOf(' ') + 1), ids), query);
