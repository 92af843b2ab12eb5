// What harness's requests look like on the wire, shared by the pre-flight (Node, src/k6/preflight.ts) and every k6
// VU (auth.ts, request.ts), so the two send the same requests. Pure TypeScript: k6 has no URLSearchParams.
import type { TokenClient } from './plan.ts';

/** The part of load/lib/spec.generated.json (src/spec/export.ts writes it from src/spec) the k6 scripts read. */
export interface K6Spec {
  readonly token: { readonly grantType: string; readonly lifetimeSeconds: number };
  /** SPEC.md §8 rule 2: Retry-After is integer seconds. */
  readonly retryAfterPattern: string;
}

/** SPEC.md §4 "Token endpoint payload", form fields in order. */
export const tokenForm = (spec: K6Spec, client: TokenClient, secret: string): Record<string, string> => ({
  grant_type: spec.token.grantType,
  client_id: client.client_id,
  client_secret: secret,
  scope: client.scope,
});

const RENEW_MARGIN_S = 30;

/**
 * When to renew a token issued at `now`: shortly before it expires. An answer without a usable `expires_in` is
 * taken at SPEC.md's lifetime (§2); the conformance checks, not the load run, grade that answer.
 */
export const renewAtFor = (spec: K6Spec, now: number, expiresIn: unknown): number => {
  const lifetime = typeof expiresIn === 'number' && expiresIn > 0 ? expiresIn : spec.token.lifetimeSeconds;
  return now + (lifetime - Math.min(RENEW_MARGIN_S, lifetime / 2)) * 1000;
};

const queryString = (pairs: Readonly<Record<string, string>>) =>
  Object.entries(pairs)
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
    .join('&');

/** The URL of endpoint `key` (`GET /path/{id}`) under base_url, path ids filled in, with the profile's query. */
export const apiUrl = (
  baseUrl: string,
  key: string,
  ids: Readonly<Record<string, string>>,
  query: Readonly<Record<string, string>> | undefined,
): string => {
  let path = key.slice(key.indexOf(' ') + 1);
  for (const [name, value] of Object.entries(ids))
    path = path.replace(`{${name}}`, encodeURIComponent(value));
  const search = query ? queryString(query) : '';
  return `${baseUrl.replace(/\/+$/, '')}${path}${search === '' ? '' : `?${search}`}`;
};
