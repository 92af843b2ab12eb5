// Tokens, obtained exactly as SPEC.md §5 rule 1 says and reused until shortly before they expire (rule 5). A VU
// starts with the token harness's pre-flight fetched for the role, so no VU spends its first iteration on a token
// request; it fetches its own only when that one is due for renewal or is refused. setup() never returns a token:
// k6 copies setup()'s return value into every summary.
//
// A token endpoint that fails must not be hammered once per iteration, nor fill stderr with a stack trace each:
// a VU whose token request fails backs off (1 s, doubling, at most 30 s) and meanwhile sends nothing, and what the
// token endpoint answered is recorded (metrics.ts) for the verdict to name.
import http, { type RefinedResponse, type ResponseType } from 'k6/http';
import { plan, prefetchedToken, secretOf, spec, target, timeoutParam } from './config.ts';
import { noToken, tokenFailures } from './metrics.ts';
import { renewAtFor, tokenForm } from './wire.ts';

interface Held {
  readonly token: string;
  readonly renewAt: number;
  /** Fetched because a 401 refused the previous one: a 401 for this one too is the server's answer, not a cue. */
  readonly after401: boolean;
}

interface Backoff {
  readonly failures: number;
  readonly retryAt: number;
}

const FIRST_BACKOFF_MS = 1000;
const MAX_BACKOFF_MS = 30_000;

const held = new Map<string, Held>();
const backoff = new Map<string, Backoff>();

/** The token answer's body, or nothing usable: a body that is no JSON must not throw once per iteration. */
const issuedBy = (res: RefinedResponse<ResponseType>): { access_token?: unknown; expires_in?: unknown } => {
  if (res.status !== 200) return {};
  try {
    return res.json() as { access_token?: unknown; expires_in?: unknown };
  } catch {
    return {};
  }
};
/** A token for `role`, or undefined when its token endpoint is failing (the iteration then sends nothing). */
export const tokenFor = (role: string, tags: Record<string, string>): string | undefined => {
  const now = Date.now();
  const current = held.get(role) ?? prefetchedToken(role);
  if (current !== undefined && current.token !== '' && now < current.renewAt) {
    if (!held.has(role)) held.set(role, { ...current, after401: false });
    return current.token;
  }
  const waiting = backoff.get(role);
  if (waiting !== undefined && now < waiting.retryAt) {
    noToken.add(1, tags);
    return undefined;
  }
  const client = plan.clients[role];
  if (client === undefined) throw new Error(`the plan has no token request for client ${role}`);
  const res = http.post(target.auth_url, tokenForm(spec.token.grantType, client, secretOf(role)), {
    tags: { endpoint: 'POST {auth_url}', name: 'token' },
    ...timeoutParam,
  });
  const body = issuedBy(res);
  if (typeof body.access_token !== 'string' || body.access_token === '') {
    // Status 0: no answer (refused, reset, timed out); 200 here came without a usable access_token.
    tokenFailures.add(res.status, tags);
    noToken.add(1, tags);
    const failures = (waiting?.failures ?? 0) + 1;
    const delay = Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS * 2 ** (failures - 1));
    backoff.set(role, { failures, retryAt: Date.now() + delay });
    return undefined;
  }
  backoff.delete(role);
  const after401 = current?.token === '';
  held.set(role, {
    token: body.access_token,
    renewAt: renewAtFor(now, body.expires_in, spec.token.lifetimeSeconds),
    after401,
  });
  return body.access_token;
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
