// One probe request: the phase's endpoint and client chosen round-robin, the bearer token of that client, the
// profile's body and query, and the outcome counted in the custom metrics under the request's tags.
import exec from 'k6/execution';
import http, { type RefinedResponse, type ResponseType } from 'k6/http';
import { forget, tokenFor } from './auth.ts';
import { target } from './config.ts';
import { admitted, limited, refused, retryAfterSeconds, retryAfterValid } from './metrics.ts';
import type { PhasePlan } from './plan.ts';

/** Path ids, found once in setup() (ids are not secrets, so setup may return them). */
export type Ids = Readonly<Record<string, string>>;

const INTEGER = /^\d+$/;

const send = (
  method: string,
  url: string,
  body: string | null,
  token: string,
  tags: Record<string, string>,
) =>
  http.request(method, url, body, {
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    tags,
  });

export const urlFor = (key: string, ids: Ids): string => {
  let path = key.slice(key.indexOf(' ') + 1);
  for (const [name, value] of Object.entries(ids))
    path = path.replace(`{${name}}`, encodeURIComponent(value));
  const query = target.requests?.[key]?.query;
  const search = query
    ? Object.entries(query).map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
    : [];
  return `${target.base_url.replace(/\/+$/, '')}${path}${search.length > 0 ? `?${search.join('&')}` : ''}`;
};

/** Sends as `role`; on a 401 fetches a fresh token and retries once (SPEC.md §5 rule 4). */
export const call = (
  key: string,
  role: string,
  ids: Ids,
  tags: Record<string, string>,
): RefinedResponse<ResponseType> => {
  const method = key.slice(0, key.indexOf(' '));
  const body = method === 'POST' ? JSON.stringify(target.requests?.[key]?.body ?? {}) : null;
  const url = urlFor(key, ids);
  const res = send(method, url, body, tokenFor(role), tags);
  if (res.status !== 401) return res;
  forget(role);
  return send(method, url, body, tokenFor(role), tags);
};

export const probeRequest = (phase: PhasePlan, ids: Ids): void => {
  const n = exec.scenario.iterationInTest;
  const endpoint = phase.endpoints[n % phase.endpoints.length]!;
  const role = phase.clients[n % phase.clients.length]!;
  const slot = String(Math.floor((Date.now() - exec.scenario.startTime) / phase.slotMs));
  const tags = { endpoint, slot, client: role };
  const res = call(endpoint, role, ids, tags);
  if (res.status === 429) {
    limited.add(1, tags);
    const value = res.headers['Retry-After'];
    const valid = value !== undefined && INTEGER.test(value) && Number(value) * 1000 <= phase.limit.windowMs;
    retryAfterValid.add(valid, tags);
    if (value !== undefined && INTEGER.test(value)) retryAfterSeconds.add(Number(value), tags);
  } else if (res.status >= 200 && res.status < 400) {
    admitted.add(1, tags);
  } else {
    refused.add(1, { ...tags, status: String(res.status) });
  }
};
