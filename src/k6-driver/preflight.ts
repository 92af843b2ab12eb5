// Before k6 starts: a token per client role, the path ids, and an API call, each timed. The round trips size k6's
// VUs (core/schedule.ts), the tokens spare every VU a token request, and the ids spare every instance a fetch.
// Tokens travel to k6 only through its environment, like the client secrets. No phase can run without them, so a
// target that cannot be talked to throws TargetError, a token endpoint that issues no token TokenError, and an id
// source that answers without the id PreflightError.
import type { K6Plan } from '../../core/plan.ts';
import { atPointer } from '../../core/pointer.ts';
import { renewAtFor, withPathIds } from '../../core/wire.ts';
import {
  ApiClient,
  type Exchange,
  exampleRequest,
  HttpClient,
  type HttpClientOptions,
  issuedToken,
  TokenError,
  TokenManager,
} from '../client/index.ts';
import { HarnessError } from '../errors.ts';
import { teachProfile } from '../profile/secrets.ts';
import type { Profile } from '../spec/index.ts';
import { TOKEN_LIFETIME_SECONDS } from '../spec/index.ts';

/** The target answered the pre-flight, but not with what the phases need. */
export class PreflightError extends HarnessError {
  override readonly name = 'PreflightError';
  constructor(message: string) {
    super('HARNESS_PREFLIGHT', message);
  }
}

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
 * secrets never reach an error message), and the requests are the ones conformance sends.
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
  const timings: number[] = [];
  const timed = async (send: () => Promise<Exchange>): Promise<Exchange> => {
    const sent = performance.now();
    const exchange = await send();
    timings.push(performance.now() - sent);
    return exchange;
  };
  teachProfile(http.redactor, profile);
  // Each token request is sent afresh (no cache): the repeats are timings, and only the first token is kept.
  const manager = new TokenManager({ authUrl: profile.auth_url, tenant: profile.tenant, http });
  const tokens: Record<string, { token: string; renewAt: number }> = {};
  for (const role of plan.preflight.tokenRequests) {
    const client = profile.clients[role as keyof Profile['clients']]!;
    const exchange = await timed(() => manager.requestToken(client));
    const issued = issuedToken(exchange);
    if (typeof issued === 'string') {
      throw new TokenError(
        `pre-flight: ${role}'s token request: the token endpoint ${issued}`,
        exchange.evidence,
      );
    }
    http.redactor.addToken(issued.token);
    tokens[role] ??= {
      token: issued.token,
      renewAt: renewAtFor(Date.now(), issued.expiresIn, TOKEN_LIFETIME_SECONDS),
    };
  }
  const api = new ApiClient({ baseUrl: profile.base_url, http, tokens: manager });
  const call = (key: string, ids: Record<string, string>) => {
    const space = key.indexOf(' ');
    const path = withPathIds(key.slice(space + 1), ids);
    const request = exampleRequest(key.slice(0, space), path, profile.requests?.[key], key);
    return timed(() => api.raw(request, `Bearer ${tokens.primary!.token}`));
  };
  const ids: Record<string, string> = { ...plan.preflight.fixedIds };
  for (const source of plan.preflight.idSources) {
    const answer = await call(source.from, ids);
    let node: unknown;
    try {
      node = atPointer(answer.json(), source.pointer);
    } catch (error) {
      // An answer that is no JSON lacks the id like any other; anything else is harness's own fault.
      if (!(error instanceof SyntaxError)) throw error;
    }
    if (typeof node !== 'string' && typeof node !== 'number')
      throw new PreflightError(`pre-flight: ${source.from} answered ${answer.status} without ${source.name}`);
    ids[source.name] = String(node);
  }
  if (plan.preflight.timedCall) await call(plan.preflight.timedCall, ids);
  const rest = timings.slice(1);
  return { roundTripMs: Math.max(...(rest.length > 0 ? rest : timings)), timingsMs: rest, ids, tokens };
};
