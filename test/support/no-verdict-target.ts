// Targets on 127.0.0.1 from which nothing can be verified: a tenant blocked for an hour (429 with Retry-After: 3600),
// a server that answers 429 with a Retry-After too large for a number, or one that answers nothing useful (500, 400,
// a sign-in page, resets). A test points a profile's base_url at one, and its auth_url at it too or at a working
// token endpoint. HEAD / (the reachability check) gets 404, so harness gets as far as its checks; no run against one
// may exit 0.
import { createServer } from 'node:http';
import { listenOnLoopback } from './listen.ts';

export const NO_VERDICT_MODES = [
  'limited-3600',
  'limited-huge',
  'status-500',
  'status-400',
  'html',
  'reset',
] as const;
export type NoVerdictMode = (typeof NO_VERDICT_MODES)[number];

/** Past Number.MAX_SAFE_INTEGER: `Number()` of it prints as 3.6e+21, which a report must never show instead. */
export const HUGE_RETRY_AFTER = '3600000000000000000000';

export interface NoVerdictTarget {
  readonly origin: string;
  /** Its token endpoint, for a run whose token requests get the same treatment as its API calls. */
  readonly authUrl: string;
  close(): Promise<void>;
}

/** Answers every request but the reachability HEAD the same way, token endpoint included. */
export const startNoVerdictTarget = async (mode: NoVerdictMode): Promise<NoVerdictTarget> => {
  const limited = (retryAfter: string) => ({ status: 429, type: 'application/json', body: '{}', retryAfter });
  const answers = {
    'limited-3600': limited('3600'),
    'limited-huge': limited(HUGE_RETRY_AFTER),
    'status-500': { status: 500, type: 'text/plain', body: 'internal error' },
    'status-400': { status: 400, type: 'application/json', body: '{"error":"invalid_request"}' },
    // A sign-in page, as a gateway in front of an expired session would serve.
    html: { status: 200, type: 'text/html', body: '<html><body>Sign in</body></html>' },
  } as const;
  const server = createServer((req, res) => {
    req.resume();
    if (req.method === 'HEAD' && req.url === '/') return void res.writeHead(404).end();
    req.on('end', () => {
      if (mode === 'reset') return void req.socket.resetAndDestroy();
      const { status, type, body, ...rest } = answers[mode];
      const retryAfter = 'retryAfter' in rest ? { 'retry-after': rest.retryAfter } : {};
      res.writeHead(status, { 'content-type': type, ...retryAfter }).end(body);
    });
  });
  const { origin } = await listenOnLoopback(server);
  return {
    origin,
    authUrl: `${origin}/oauth2/token`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};
