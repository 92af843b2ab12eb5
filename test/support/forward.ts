// A loopback proxy in front of the reference server that forwards every request, letting a test delay one or answer
// it itself: a slow token endpoint, an API that fails at one moment.
import { createServer, type IncomingMessage } from 'node:http';
import { allChecks } from '../../conformance/index.ts';
import { resolveTarget } from '../../src/profile/target.ts';
import { startReferenceServer } from '../../src/reference/index.ts';
import { runConformance } from '../../src/runner/runner.ts';
import { selectChecks } from '../../src/runner/select.ts';
import type { CheckResult } from '../../src/runner/types.ts';
import type { Profile } from '../../src/spec/index.ts';
import { listenOnLoopback } from './listen.ts';
import { SCALED } from './testbed.ts';

export interface Forwarded {
  readonly method: string;
  readonly path: string;
  readonly contentType: string | undefined;
  /** Which request to this method and path it is, from 1. */
  readonly nth: number;
}

/**
 * What to do with a request: forward it (after `delayMs`; `answerHeaders` added to the answer by its status), answer
 * `status` without forwarding (with `body` as JSON, `{}` if none; a redirect to `location`), or `reset` it.
 */
export type Tamper = (req: Forwarded) =>
  | {
      delayMs?: number;
      status?: number;
      body?: string;
      location?: string;
      reset?: boolean;
      answerHeaders?: (status: number) => Record<string, string>;
    }
  | undefined;

const bodyOf = async (req: IncomingMessage): Promise<Buffer> => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
};

export const startForwarding = async (upstream: string, tamper: Tamper) => {
  const seen = new Map<string, number>();
  const server = createServer(async (req, res) => {
    const body = await bodyOf(req);
    const method = req.method ?? 'GET';
    const path = (req.url ?? '/').split('?')[0]!;
    const nth = (seen.get(`${method} ${path}`) ?? 0) + 1;
    seen.set(`${method} ${path}`, nth);
    const {
      delayMs = 0,
      status,
      body: made,
      location,
      reset,
      answerHeaders,
    } = tamper({ method, path, contentType: req.headers['content-type'], nth }) ?? {};
    await new Promise((resolve) => setTimeout(resolve, delayMs));
    if (reset) return void req.socket.resetAndDestroy();
    if (status !== undefined) {
      const headers = { 'content-type': 'application/json', ...(location ? { location } : {}) };
      return void res.writeHead(status, headers).end(made ?? '{}');
    }
    const headers = Object.fromEntries(
      Object.entries(req.headers).filter(
        ([name]) => !['host', 'connection', 'content-length'].includes(name),
      ),
    ) as Record<string, string>;
    // A request delayed past the upstream's close finds nothing there: reset, as a dead gateway would.
    const answered = await fetch(`${upstream}${req.url}`, {
      method,
      headers,
      ...(body.length > 0 ? { body: new Uint8Array(body) } : {}),
    }).then(
      async (answer) => ({ answer, answerBody: Buffer.from(await answer.arrayBuffer()) }),
      () => undefined,
    );
    if (answered === undefined) return void req.socket.resetAndDestroy();
    const { answer, answerBody } = answered;
    const forwardedHeaders = Object.fromEntries(
      [...answer.headers].filter(
        ([name]) => !['content-length', 'content-encoding', 'transfer-encoding', 'connection'].includes(name),
      ),
    );
    res.writeHead(answer.status, { ...forwardedHeaders, ...answerHeaders?.(answer.status) }).end(answerBody);
  });
  // Longer than any wait of a check, as the reference server's: harness's idle connections are not reset under it.
  server.keepAliveTimeout = 60_000;
  const { port } = await listenOnLoopback(server);
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};

/** The profile's two URLs pointed at `origin` (a forwarder), their paths kept. */
export const routedThrough = (profile: Profile, origin: string): Pick<Profile, 'base_url' | 'auth_url'> => ({
  base_url: `${origin}${new URL(profile.base_url).pathname}`,
  auth_url: `${origin}${new URL(profile.auth_url).pathname}`,
});

/** A server on another loopback port that counts every request reaching it: where a test's redirect points. */
export const startSink = async () => {
  let received = 0;
  const server = createServer((req, res) => {
    received += 1;
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
  const { origin } = await listenOnLoopback(server);
  return {
    origin,
    received: () => received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
};

/** Runs the checks `only` selects against the reference server, every request through `tamper`; results by id. */
export const checksThrough = async (only: string[], tamper: Tamper): Promise<Record<string, CheckResult>> => {
  const server = await startReferenceServer(SCALED);
  const profile = server.profile();
  const proxy = await startForwarding(new URL(profile.base_url).origin, tamper);
  try {
    const target = resolveTarget({ ...profile, ...routedThrough(profile, proxy.origin) });
    const selection = selectChecks(allChecks(target), { only, slow: true });
    const report = await runConformance(target, selection, {
      provenance: { version: 'test', command: 'test' },
    });
    return Object.fromEntries(report.checks.map((c) => [c.id, c]));
  } finally {
    await proxy.close();
    await server.close();
  }
};
