// Before k6 starts: a token per client role, the path ids, and an API call, each timed. The round trips size k6's
// VUs (load/lib/schedule.ts), the tokens spare every VU a token request, and the ids spare every instance a fetch.
// Tokens travel to k6 only through its environment, like the client secrets. A target that cannot be talked to
// throws TargetError, a token endpoint that issues no token TokenError: no phase can run without them.

import type { K6Plan } from '../../load/lib/plan.ts';
import { atPointer } from '../../load/lib/pointer.ts';
import { apiUrl, renewAtFor, tokenForm } from '../../load/lib/wire.ts';
import { HttpClient, type HttpClientOptions, TokenError } from '../client/index.ts';
import type { Profile } from '../spec/index.ts';
import { GRANT_TYPE, TOKEN_LIFETIME_SECONDS, TOKEN_REQUEST_CONTENT_TYPE } from '../spec/index.ts';

export interface Preflight {
  /** The longest round trip timed (ms), the first connection's excepted. */
  readonly roundTripMs: number;
  readonly timingsMs: readonly number[];
  readonly ids: Readonly<Record<string, string>>;
  /** Secret: tokens by role with the epoch ms to renew them at. */
  readonly tokens: Readonly<Record<string, { token: string; renewAt: number }>>;
}

/**
 * Through harness's own client, so the run's proxy, CA, client certificate and timeout apply (and its redactor: the
 * secrets never reach an error message).
 */
export const runPreflight = async (
  profile: Profile,
  plan: K6Plan,
  network: HttpClientOptions = {},
): Promise<Preflight> => {
  const http = new HttpClient(network);
  try {
    return await preflight(profile, plan, http);
  } finally {
    await http.close();
  }
};

const preflight = async (profile: Profile, plan: K6Plan, http: HttpClient): Promise<Preflight> => {
  const timed = async (
    url: string,
    init: { method: string; headers?: Record<string, string>; body?: string },
  ) => {
    const sent = performance.now();
    const exchange = await http.send({ url, ...init });
    return { res: exchange, body: exchange.text(), ms: performance.now() - sent };
  };
  for (const client of Object.values(profile.clients)) http.redactor.addSecret(client.client_secret);
  const timings: number[] = [];
  const tokens: Record<string, { token: string; renewAt: number }> = {};
  for (const role of plan.preflight.tokenRequests) {
    const secret = profile.clients[role as keyof Profile['clients']]?.client_secret ?? '';
    const { res, body, ms } = await timed(profile.auth_url, {
      method: 'POST',
      headers: { 'content-type': TOKEN_REQUEST_CONTENT_TYPE },
      body: new URLSearchParams(tokenForm(GRANT_TYPE, plan.clients[role]!, secret)).toString(),
    });
    timings.push(ms);
    let issued: { access_token?: unknown; expires_in?: unknown } = {};
    try {
      issued = JSON.parse(body);
    } catch {}
    if (res.status !== 200 || typeof issued.access_token !== 'string') {
      const answer = res.status === 200 ? '200 without an access_token' : String(res.status);
      throw new TokenError(
        `pre-flight: the token endpoint answered ${answer} to ${role}'s request`,
        res.evidence,
      );
    }
    http.redactor.addToken(issued.access_token);
    tokens[role] ??= {
      token: issued.access_token,
      renewAt: renewAtFor(Date.now(), issued.expires_in, TOKEN_LIFETIME_SECONDS),
    };
  }
  const call = async (key: string, ids: Record<string, string>) => {
    const method = key.slice(0, key.indexOf(' '));
    const example = profile.requests?.[key];
    const url = apiUrl(profile.base_url, key, ids, example?.query as Record<string, string> | undefined);
    const { res, body, ms } = await timed(url, {
      method,
      headers: { authorization: `Bearer ${tokens.primary!.token}`, 'content-type': 'application/json' },
      ...(method === 'POST' ? { body: JSON.stringify(example?.body ?? {}) } : {}),
    });
    timings.push(ms);
    return { status: res.status, body };
  };
  const ids: Record<string, string> = { ...plan.preflight.fixedIds };
  for (const source of plan.preflight.idSources) {
    const { status, body } = await call(source.from, ids);
    let node: unknown;
    try {
      node = atPointer(JSON.parse(body), source.pointer);
    } catch {}
    if (typeof node !== 'string' && typeof node !== 'number')
      throw new Error(`pre-flight: ${source.from} answered ${status} without ${source.name}`);
    ids[source.name] = String(node);
  }
  if (plan.preflight.timedCall) await call(plan.preflight.timedCall, ids);
  const rest = timings.slice(1);
  return { roundTripMs: Math.max(...(rest.length > 0 ? rest : timings)), timingsMs: rest, ids, tokens };
};
