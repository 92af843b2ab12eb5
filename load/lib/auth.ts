// Tokens, obtained exactly as SPEC.md §5 rule 1 says and reused until shortly before they expire (rule 5). A VU
// starts with the token harness's pre-flight fetched for the role, so no VU spends its first iteration on a token
// request; it fetches its own only when that one is due for renewal or is refused. setup() never returns a token:
// k6 copies setup()'s return value into every summary.
import http from 'k6/http';
import { plan, prefetchedToken, secretOf, spec, target } from './config.ts';
import { renewAtFor, tokenForm } from './wire.ts';

interface Held {
  readonly token: string;
  readonly renewAt: number;
}

const held = new Map<string, Held>();

export const tokenFor = (role: string): string => {
  const now = Date.now();
  const current = held.get(role) ?? prefetchedToken(role);
  if (current !== undefined && now < current.renewAt) {
    held.set(role, current);
    return current.token;
  }
  const client = plan.clients[role];
  if (client === undefined) throw new Error(`the plan has no token request for client ${role}`);
  const res = http.post(target.auth_url, tokenForm(spec, client, secretOf(role)), {
    tags: { endpoint: 'POST {auth_url}', name: 'token' },
  });
  const body = res.status === 200 ? (res.json() as { access_token?: unknown; expires_in?: unknown }) : {};
  if (typeof body.access_token !== 'string') throw new Error(`token request for ${role} got ${res.status}`);
  held.set(role, { token: body.access_token, renewAt: renewAtFor(spec, now, body.expires_in) });
  return body.access_token;
};

/** After a 401: the held token is no good, the next call fetches a fresh one (never the pre-fetched one again). */
export const forget = (role: string): void => {
  held.set(role, { token: '', renewAt: 0 });
};
