// Tokens, obtained exactly as SPEC.md §5 rule 1 says and reused until shortly before they expire (rule 5). A VU
// starts with the token harness's pre-flight fetched for the role, so no VU spends its first iteration on a token
// request; it fetches its own only when that one is due for renewal or is refused. setup() never returns a token:
// k6 copies setup()'s return value into every summary.
import http from 'k6/http';
import { prefetchedToken, secretOf, target } from './config.ts';
import { renewAtFor } from './preflight-plan.ts';

interface Held {
  readonly token: string;
  readonly renewAt: number;
}

const held = new Map<string, Held>();

const requestToken = (role: string): { status: number; token?: string; expiresIn?: number } => {
  const client = target.clients[role];
  if (client === undefined) throw new Error(`the profile has no clients.${role}`);
  const form = {
    grant_type: 'client_credentials',
    client_id: client.client_id,
    client_secret: secretOf(role),
    scope: `tenant/${client.tenant ?? target.tenant}`,
  };
  const res = http.post(target.auth_url, form, { tags: { endpoint: 'POST {auth_url}', name: 'token' } });
  if (res.status !== 200) return { status: res.status };
  const body = res.json() as { access_token?: string; expires_in?: number };
  return { status: 200, token: body.access_token, expiresIn: body.expires_in };
};

export const tokenFor = (role: string): string => {
  const now = Date.now();
  const current = held.get(role) ?? prefetchedToken(role);
  if (current !== undefined && now < current.renewAt) {
    held.set(role, current);
    return current.token;
  }
  const issued = requestToken(role);
  if (issued.token === undefined) throw new Error(`token request for ${role} got ${issued.status}`);
  const lifetime = typeof issued.expiresIn === 'number' && issued.expiresIn > 0 ? issued.expiresIn : 3600;
  held.set(role, { token: issued.token, renewAt: renewAtFor(now, lifetime) });
  return issued.token;
};

/** After a 401: the held token is no good, the next call fetches a fresh one (never the pre-fetched one again). */
export const forget = (role: string): void => {
  held.set(role, { token: '', renewAt: 0 });
};
