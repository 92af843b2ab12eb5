// A real rate-limiting library (express-rate-limit, @fastify/rate-limit, @nestjs/throttler) run as a gateway on
// loopback in front of the reference server: the library limits GET /api/rules/schedule per tenant, as SPEC.md §8
// states (120 a "minute" of the tests' 2 s), sends its RateLimit fields in its own dialect, and forwards everything to
// the reference server, whose own limit on that endpoint is raised out of the way. The RATELIMIT checks then grade
// what the library sends, not a fixture. A lying gateway rewrites the quota in its answers' fields as they leave.
import { createServer, type IncomingMessage, type RequestListener, type ServerResponse } from 'node:http';
import { allChecks } from '../../../conformance/index.ts';
import { resolveTarget } from '../../../src/profile/target.ts';
import { startReferenceServer } from '../../../src/reference/index.ts';
import { runConformance } from '../../../src/runner/runner.ts';
import { selectChecks } from '../../../src/runner/select.ts';
import type { RunReport } from '../../../src/runner/types.ts';
import { BUCKETS } from '../../../src/spec/index.ts';
import { routedThrough } from '../forward.ts';
import { listenOnLoopback } from '../listen.ts';
import { SCALED } from '../testbed.ts';

/** What a gateway is started with. */
export interface GatewaySetup {
  /** The reference server's origin. */
  readonly upstream: string;
  /** SPEC.md's rules-schedule limit as the tests scale it: the library's own setting, in ms where it takes ms. */
  readonly limit: { readonly count: number; readonly windowMs: number };
  /** The key a request is limited by: its tenant (from the JWT it carries), as §8 rule 1 says. */
  readonly tenantOf: (authorization: string | undefined) => string;
  /** Rewrite the quota in the fields of every answer (see lieAboutQuota). */
  readonly lie: boolean;
}

export interface Gateway {
  readonly origin: string;
  close(): Promise<void>;
}

export type StartGateway = (setup: GatewaySetup) => Promise<Gateway>;

/** A library's app (a request listener) served on loopback. */
export const serve = async (listener: RequestListener): Promise<Gateway> => {
  const server = createServer(listener);
  // Longer than any wait of a check, as the reference server's: harness's idle connections are not reset under it.
  server.keepAliveTimeout = 60_000;
  const { origin } = await listenOnLoopback(server);
  return {
    origin,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};

/** The one endpoint the gateways limit: the rules-schedule probe is what the RATELIMIT checks read. */
export const isSchedule = (url: string | undefined): boolean =>
  (url ?? '').split('?')[0]!.endsWith('/api/rules/schedule');

/** What the lying gateway says the quota is, as in issue 36: `limit 1000, remaining 879` on a 429. */
const LIE_QUOTA = 1000;

/** One field's value as the lying gateway rewrites it: the quota made LIE_QUOTA, the count shifted to match it. */
const lieIn = (field: string, value: string, quota: number, refused: boolean): string => {
  const more = (n: string) => String(Number(n) + LIE_QUOTA - quota - (refused ? 1 : 0));
  if (/^(x-)?ratelimit-limit/.test(field)) return String(LIE_QUOTA);
  if (/^(x-)?ratelimit-remaining/.test(field)) return more(value);
  if (field === 'ratelimit-policy') {
    return value.replace(/^(\s*)\d+/, `$1${LIE_QUOTA}`).replace(/\bq=\d+/g, `q=${LIE_QUOTA}`);
  }
  if (field === 'ratelimit') {
    return value
      .replace(/\blimit=\d+/g, `limit=${LIE_QUOTA}`)
      .replace(/\b(remaining|r)=(\d+)/g, (_, key: string, n: string) => `${key}=${more(n)}`);
  }
  return value;
};

/**
 * The gateway's header hook, lying: every RateLimit field is rewritten as the answer's head is written, whether the
 * library set it on the response (express) or hands it to writeHead (fastify).
 */
export const lieAboutQuota = (res: ServerResponse, quota: number): void => {
  const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => ServerResponse;
  res.writeHead = ((status: number, ...rest: unknown[]) => {
    const refused = status === 429;
    const rewrite = (field: string, value: unknown) =>
      Array.isArray(value)
        ? value.map((v) => lieIn(field.toLowerCase(), String(v), quota, refused))
        : lieIn(field.toLowerCase(), String(value), quota, refused);
    for (const field of res.getHeaderNames()) res.setHeader(field, rewrite(field, res.getHeader(field)));
    const headers = rest.find(
      (arg): arg is Record<string, unknown> => typeof arg === 'object' && arg !== null,
    );
    if (headers !== undefined && !Array.isArray(headers)) {
      for (const [field, value] of Object.entries(headers)) headers[field] = rewrite(field, value);
    }
    return writeHead(status, ...rest);
  }) as typeof res.writeHead;
};

const bodyOf = async (req: IncomingMessage): Promise<Buffer> => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
};

/** Hop-by-hop and length fields: node writes its own. */
const NOT_FORWARDED = new Set([
  'host',
  'connection',
  'content-length',
  'content-encoding',
  'transfer-encoding',
]);

/** The upstream's answer to `req`: its status, its headers to forward and its body. */
export const askUpstream = async (
  upstream: string,
  req: IncomingMessage,
  body?: Buffer,
): Promise<{ status: number; headers: Record<string, string>; body: Buffer }> => {
  const sent = body ?? (await bodyOf(req));
  const headers = Object.fromEntries(
    Object.entries(req.headers).filter(([name]) => !NOT_FORWARDED.has(name)),
  ) as Record<string, string>;
  const answer = await fetch(`${upstream}${req.url}`, {
    method: req.method ?? 'GET',
    headers,
    ...(sent.length > 0 ? { body: new Uint8Array(sent) } : {}),
  });
  return {
    status: answer.status,
    headers: Object.fromEntries([...answer.headers].filter(([name]) => !NOT_FORWARDED.has(name))),
    body: Buffer.from(await answer.arrayBuffer()),
  };
};

/** Forwards `req` and writes the upstream's answer on `res`, beside the fields the library set on it. */
export const forward = async (upstream: string, req: IncomingMessage, res: ServerResponse): Promise<void> => {
  const answer = await askUpstream(upstream, req).catch(() => undefined);
  if (answer === undefined) return void req.socket.resetAndDestroy();
  res.writeHead(answer.status, answer.headers).end(answer.body);
};

/** The tenant of a request by the client_id of its JWT (the gateway verifies nothing: the server behind does). */
const tenantsBy = (clients: Record<string, { client_id: string; tenant?: string }>, tenant: string) => {
  const byClient = new Map(Object.values(clients).map((c) => [c.client_id, c.tenant ?? tenant]));
  return (authorization: string | undefined): string => {
    const payload = authorization?.split(' ')[1]?.split('.')[1];
    if (payload === undefined) return 'no token';
    try {
      const { client_id } = JSON.parse(Buffer.from(payload, 'base64url').toString()) as {
        client_id?: string;
      };
      return byClient.get(client_id ?? '') ?? 'unknown client';
    } catch {
      return 'unreadable token';
    }
  };
};

/**
 * The RATELIMIT checks (and the rules-schedule probe they read), or the checks `only` names, through a gateway.
 * `exclusive`: whether the profile says no other traffic uses the tenant (the embedded server's says so).
 */
export const gradeBehind = async (
  start: StartGateway,
  lie: boolean,
  only: readonly string[] = ['ratelimit'],
  exclusive = true,
): Promise<RunReport> => {
  const { count } = BUCKETS['rules-schedule'].limit;
  // The gateway is the limiter: the server's own rules-schedule limit is raised far past anything the probe sends.
  const server = await startReferenceServer({
    ...SCALED,
    tokens: 'jwt',
    limits: { ...SCALED.limits, 'rules-schedule': { count: 1_000_000, per: 'minute' } },
  });
  const profile = server.profile();
  const gateway = await start({
    upstream: server.baseUrl,
    limit: { count, windowMs: SCALED.minuteMs! },
    tenantOf: tenantsBy(profile.clients, profile.tenant),
    lie,
  });
  try {
    // What harness is told is SPEC.md's limit, in the tests' minutes: the raised one is the server's affair alone.
    const { 'rules-schedule': _raised, ...limits } = profile.limits ?? {};
    const routed = { ...profile, limits, ...routedThrough(profile, gateway.origin) };
    const target = resolveTarget({ ...routed, exclusive_tenant: exclusive });
    const selection = selectChecks(allChecks(target), { only, slow: true });
    return await runConformance(target, selection, { provenance: { version: 'test', command: 'test' } });
  } finally {
    await gateway.close();
    await server.close();
  }
};
