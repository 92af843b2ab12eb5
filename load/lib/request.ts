// One probe request: the phase's endpoint and client chosen round-robin, the bearer token of that client, the
// profile's body and query, and the outcome recorded as evidence: the slot of its send time and its round trip.
// The request reached the server somewhere between sending and answer; that interval is all a verdict may use.
import exec from 'k6/execution';
import http, { type Params, type RefinedResponse, type ResponseType } from 'k6/http';
import { slotsOf } from '../../core/phase-results.ts';
import { fieldNumbers } from '../../core/ratelimit-dialects.ts';
import { scheduledMs } from '../../core/schedule.ts';
import { apiHeaders, apiUrl } from '../../core/wire.ts';
import { forget, tokenFor } from './auth.ts';
import { readClock } from './clock.ts';
import { phases, requestTimeoutParams, spec, target } from './config.ts';
import {
  evidence,
  networkErrors,
  rateLimitDialects,
  rateLimitQuota,
  rateLimitRemainingLimited,
  rateLimitWindow,
  refused,
  renewed,
  retryAfterSeconds,
  retryAfterValid,
  startLag,
  unslotted,
} from './metrics.ts';
import type { SealedTokens } from './setup-tokens.ts';

/** Path ids, found once before the run (ids are not secrets, so setup may return them). */
export type Ids = Readonly<Record<string, string>>;

/** What setup() hands every iteration: the path ids and the epoch ms the plan's time 0 falls on. */
export interface SetupData {
  readonly ids: Ids;
  readonly origin: number;
  /** How late this instance started against the common start (ms); 0 when on time. */
  readonly lateMs: number;
  /** A token per client role, sealed: only where no pre-flight handed tokens over (setup-tokens.ts). */
  readonly tokens?: SealedTokens;
  /** Token requests setup() sent before the start. */
  readonly tokenRequests: number;
  /** The k6 that sent them (`v2.2.0`), where the environment does not say (k6-operator pods). */
  readonly k6Version?: string;
}

const RETRY_AFTER = new RegExp(spec.retryAfterPattern);

const urlFor = (key: string, ids: Ids): string =>
  apiUrl(target().base_url, key, ids, target().requests?.[key]?.query);

interface Timed {
  readonly res: RefinedResponse<ResponseType>;
  readonly sent: number;
  readonly answered: number;
}

/**
 * Sends as `role`, timed from just before sending to just after the answer (the token is fetched first); nothing
 * when there is no token (the token endpoint is failing).
 */
const timedCall = (
  key: string,
  role: string,
  ids: Ids,
  tags: Record<string, string>,
  read: Pick<Params, 'responseType'>,
): Timed | undefined => {
  const token = tokenFor(role, tags);
  if (token === undefined) return undefined;
  const method = key.slice(0, key.indexOf(' '));
  const body = method === 'POST' ? JSON.stringify(target().requests?.[key]?.body ?? {}) : null;
  // The profile's headers too, as conformance sends them (src/client/api.ts).
  const headers = apiHeaders('application/json', `Bearer ${token}`, target().requests?.[key]?.headers);
  const sent = Date.now();
  const res = http.request(method, urlFor(key, ids), body, {
    headers,
    tags,
    ...read,
    ...requestTimeoutParams,
  });
  const answered = Date.now();
  readClock(res.headers, sent, answered);
  return { res, sent, answered };
};

/**
 * On a 401 fetches a fresh token and sends once more (SPEC.md §5 rule 4); the retry is the one recorded. A probe
 * reads no body (options.ts discards them) unless `read` asks for it.
 */
const call = (
  key: string,
  role: string,
  ids: Ids,
  tags: Record<string, string>,
  read: Pick<Params, 'responseType'> = {},
): Timed | undefined => {
  const first = timedCall(key, role, ids, tags, read);
  if (first?.res.status !== 401 || !forget(role)) return first;
  renewed.add(1);
  return timedCall(key, role, ids, tags, read);
};

/**
 * k6 names a header as Go writes it (`Ratelimit-Policy`); the dialects name them in lower case, and a named
 * throttler's fields (`X-Ratelimit-Limit-Short`) are found only by going through them all.
 */
const lowerCased = (headers: Record<string, string>): Record<string, string> =>
  Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));

/**
 * A VU reads the fields of its first few answers and first few 429s of each phase, no more: the note states the
 * values a phase's fields took, and reading every answer cost k6 enough at 1000 a second on two cores to drop
 * iterations. Conformance reads every answer of its probe (conformance/ratelimit-fields.ts).
 */
const READ_PER_PHASE = 10;
const answersRead = new Map<number, number>();
const refusalsRead = new Map<number, number>();

const recordRateLimitFields = (index: number, headers: Record<string, string>, limited: boolean): void => {
  const read = limited ? refusalsRead : answersRead;
  const n = read.get(index) ?? 0;
  if (n >= READ_PER_PHASE) return;
  read.set(index, n + 1);
  const said = fieldNumbers(lowerCased(headers));
  if (said === undefined) return;
  rateLimitDialects.add(said.dialects);
  if (said.quota !== undefined) rateLimitQuota.add(said.quota);
  if (said.windowSeconds !== undefined) rateLimitWindow.add(said.windowSeconds);
  if (limited && said.remaining !== undefined) rateLimitRemainingLimited.add(said.remaining);
};

export const probeRequest = (index: number, data: SetupData): void => {
  const phase = phases[index]!;
  const n = exec.scenario.iterationInTest;
  const phaseStart = data.origin + phase.startMs;
  startLag.add(Math.max(0, Date.now() - phaseStart - scheduledMs(phase, n)));
  const endpoint = phase.endpoints[n % phase.endpoints.length]!;
  const role = phase.clients[n % phase.clients.length]!;
  const tags = { endpoint, client: role };
  const timed = call(endpoint, role, data.ids, tags);
  if (timed === undefined) return;
  const { res, sent, answered } = timed;
  recordRateLimitFields(index, res.headers, res.status === 429);
  const slot = Math.max(0, Math.floor((sent - phaseStart) / phase.slotMs));
  const inSlots = slot < slotsOf(phase);
  if (!inSlots) unslotted.add(1);
  const record = (trend: (typeof evidence)[number]['admitted']) =>
    trend.add(answered - sent, inSlots ? { slot: String(slot) } : {});
  if (res.status === 429) {
    record(evidence[index]!.limited);
    const value = res.headers['Retry-After'];
    const integer = value !== undefined && RETRY_AFTER.test(value);
    // Whether it is longer than the window is the verdict's to grade (WARN), from the largest value.
    retryAfterValid.add(integer);
    if (integer) retryAfterSeconds.add(Number(value));
  } else if (res.status >= 200 && res.status < 300) {
    // Only a success counts as admitted, as in conformance: a redirect (never followed) is an answer otherwise.
    record(evidence[index]!.admitted);
  } else if (res.status === 0) {
    networkErrors.add(1);
  } else {
    refused.add(1, { status: String(res.status) });
  }
};

/** For setup(): a plain call with token renewal and its body read, untimed; undefined when no token could be had. */
export const fetchFrom = (key: string, role: string, ids: Ids) =>
  call(key, role, ids, { name: 'setup: path id' }, { responseType: 'text' })?.res;
