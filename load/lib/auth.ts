// Tokens, obtained exactly as SPEC.md §5 rule 1 says and reused until shortly before they expire (rule 5). A VU
// starts with a token fetched before the common start, so no VU spends its first iteration on a token request:
// harness's pre-flight hands them over in HARNESS_TOKENS; a k6-operator runner, which has no pre-flight, fetches one
// per role in setup() and returns them sealed (setup-tokens.ts). setup()'s return value is served on the runner's
// REST API and copied into k6's summary data, so it holds no token in clear: an AES-GCM ciphertext under a key
// derived from the client secrets and the run id opens for no one who lacks those secrets, and whoever has them can
// fetch tokens anyway. A VU fetches its own only when its token is due for renewal or is refused.
//
// A token endpoint that fails must not be hammered, by one VU or by hundreds: every token request waits for a turn
// of its VU (token-turns.ts), which bounds the whole run's token requests at 1 + 10 a second; meanwhile the VU sends
// nothing, and what the token endpoint answered is recorded (metrics.ts) for the verdict to name. A token answer is
// the one body a VU reads, within MAX_TOKEN_BODY_BYTES and never decoded (token-post.ts); one over the cap or sent
// encoded gives no token, and each VU says so once.
import type { UnreadTokenAnswer } from '../../core/evidence.ts';
import { UNREAD_BITS } from '../../core/phase-results.ts';
import { unreadTokenAnswerSaid } from '../../core/token-reader.ts';
import { runVus, type TokenTurns, tokenTurns, turnPeriodMs } from '../../core/token-turns.ts';
import { renewAtFor, tokenForm } from '../../core/wire.ts';
import {
  instanceIndex,
  instances,
  phases,
  plan,
  prefetchedToken,
  requestTimeoutMs,
  roundTripMs,
  secretOf,
  spec,
  startAt,
  target,
} from './config.ts';
import { noToken, tokenFailures, tokenUnread } from './metrics.ts';
import { cappedReader, postTokenForm, type TokenAnswer } from './token-post.ts';
import type { OpenedToken } from './token-seal.ts';

interface Held {
  readonly token: string;
  readonly renewAt: number;
  /** Fetched because a 401 refused the previous one: a 401 for this one too is the server's answer, not a cue. */
  readonly after401: boolean;
}

const held = new Map<string, Held>();
let tokenRequests = 0;

/** Token requests this process (this VU's runtime) has sent: setup() reports its own. */
export const tokenRequestsSent = (): number => tokenRequests;

// k6 cannot read its own version, but sends it: token requests carry k6's own User-Agent (`Grafana k6/2.2.0`).
let agent: string | undefined;

/** The version of the k6 running this, from a token request this runtime sent; undefined before one. */
export const k6VersionSent = (): string | undefined => {
  const version = agent === undefined ? undefined : /\bk6\/(\d[\w.+-]*)/.exec(agent)?.[1];
  return version === undefined ? undefined : `v${version}`;
};

// setup() (VU 0) fetches its tokens and path ids before the start: it takes no turn. A VU's turns are dealt on its
// first token request, not before: under the k6-operator its instance is known only once VUs run, and reading it
// (exec.test.options) takes tens of ms, which a VU that starts with a token must not spend on its first request.
const vus = runVus(phases, roundTripMs, instances);
/** Renewal starts a VU's period ahead, so a turn comes before the token is due. */
const renewalLeadMs = turnPeriodMs(vus);
let dealt: TokenTurns | undefined;
const turnsOf = (): TokenTurns | undefined => {
  if (__VU === 0) return undefined;
  dealt ??= tokenTurns(instanceIndex() + instances * (__VU - 1), vus, startAt);
  return dealt;
};

/** The token answer's body, or nothing usable: a body that is no JSON must not throw once per iteration. */
const issuedBy = (answer: TokenAnswer): { access_token?: unknown; expires_in?: unknown } => {
  if (answer.status !== 200 || answer.unread !== undefined) return {};
  try {
    return JSON.parse(answer.body) as { access_token?: unknown; expires_in?: unknown };
  } catch {
    return {};
  }
};

const unreadSaid = new Set<UnreadTokenAnswer>();

/**
 * Says why a token request gave no token: an unread answer once per VU, a failed request each time, as k6 says of
 * its own requests; the CLI folds the lines of a kind into one and a count (src/k6-driver/run.ts).
 */
const sayWhyNoToken = (answer: TokenAnswer): void => {
  if (answer.failed !== undefined) console.warn(`harness: a token request failed: ${answer.failed}`);
  if (answer.unread === undefined || unreadSaid.has(answer.unread)) return;
  unreadSaid.add(answer.unread);
  console.warn(
    `harness: a token answer (status ${answer.status}): the token endpoint ${unreadTokenAnswerSaid(answer.unread, cappedReader)}; no token from it`,
  );
};

const requestToken = (role: string): TokenAnswer => {
  const client = plan.clients[role];
  if (client === undefined) throw new Error(`the plan has no token request for client ${role}`);
  tokenRequests += 1;
  const answer = postTokenForm(
    target().auth_url,
    tokenForm(spec.token.grantType, client, secretOf(role)),
    requestTimeoutMs,
    { endpoint: 'POST {auth_url}', name: 'token' },
  );
  agent ??= answer.agent;
  sayWhyNoToken(answer);
  return answer;
};

/** A token for `role`, or undefined when its token endpoint is failing (the iteration then sends nothing). */
export const tokenFor = (role: string, tags: Record<string, string>): string | undefined => {
  const now = Date.now();
  const current = held.get(role) ?? prefetchedToken(role);
  const valid = current !== undefined && current.token !== '' && now < current.renewAt;
  if (valid && !held.has(role)) held.set(role, { ...current, after401: false });
  const renewing = __VU !== 0 && now >= (current?.renewAt ?? 0) - renewalLeadMs;
  if (valid && !renewing) return current.token;
  const turns = turnsOf();
  if (turns !== undefined && !turns.take(now)) {
    if (valid) return current.token;
    noToken.add(1, tags);
    return undefined;
  }
  const answer = requestToken(role);
  const body = issuedBy(answer);
  if (typeof body.access_token !== 'string' || body.access_token === '') {
    // Status 0: no answer (refused, reset, timed out); 200 here came without a usable access_token, or unread.
    tokenFailures.add(answer.status, tags);
    if (answer.unread !== undefined && cappedReader)
      tokenUnread.add(UNREAD_BITS[answer.unread], { ...tags, answer: answer.unread });
    if (valid) return current.token;
    noToken.add(1, tags);
    return undefined;
  }
  const after401 = current?.token === '';
  held.set(role, {
    token: body.access_token,
    renewAt: renewAtFor(now, body.expires_in, spec.token.lifetimeSeconds),
    after401,
  });
  return body.access_token;
};

/** The token held for `role` and when to renew it, if there is a usable one. */
export const heldToken = (role: string): OpenedToken | undefined => {
  const current = held.get(role);
  return current === undefined || current.token === ''
    ? undefined
    : { token: current.token, renewAt: current.renewAt };
};

/** Starts this VU with a token fetched before the start (setup-tokens.ts), unless it already holds one. */
export const hold = (role: string, given: OpenedToken): void => {
  if (!held.has(role)) held.set(role, { ...given, after401: false });
};

/**
 * After a 401: the held token is no good, the next call fetches a fresh one (never the pre-fetched one again).
 * Returns false when the refused token was itself fresh from a 401, so a server refusing every token gets no
 * token request per iteration.
 */
export const forget = (role: string): boolean => {
  if (held.get(role)?.after401) return false;
  held.set(role, { token: '', renewAt: 0, after401: false });
  return true;
};
