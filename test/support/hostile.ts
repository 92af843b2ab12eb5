// Deliberately broken token endpoints on 127.0.0.1, as a new user's worst target would be: each misbehaves only on
// POST to the token path, and answers anything else (the reachability HEAD) with a plain 404, so harness gets as
// far as its checks.
import { createServer, type ServerResponse } from 'node:http';
import { listenOnLoopback } from './listen.ts';

export const HOSTILE_MODES = ['hang', 'reset', 'garbage', 'drip', 'status-500', 'huge', 'endless'] as const;
export type HostileMode = (typeof HOSTILE_MODES)[number];

/** The declared size of the `huge` body: 200 MB of JSON, as in the issue that found it. */
export const HUGE_BODY_BYTES = 200 * 1024 * 1024;
const CHUNK = Buffer.alloc(64 * 1024, ' ');

export interface HostileServer {
  readonly origin: string;
  readonly authUrl: string;
  /** Bytes the server managed to write into response bodies: how much harness let it send. */
  bodyBytesSent(): number;
  close(): Promise<void>;
}

/** Writes `total` bytes (forever when undefined) as fast as the reader takes them, stopping when it hangs up. */
const stream = (res: ServerResponse, count: (n: number) => void, total?: number): void => {
  let left = total ?? Number.POSITIVE_INFINITY;
  res.write('{"access_token":"');
  const pump = (): void => {
    while (left > 0 && !res.destroyed) {
      const chunk = left >= CHUNK.length ? CHUNK : CHUNK.subarray(0, left);
      left -= chunk.length;
      count(chunk.length);
      if (!res.write(chunk)) return void res.once('drain', pump);
    }
    if (!res.destroyed) res.end();
  };
  pump();
};

export const startHostile = async (
  mode: HostileMode,
  tokenPath = '/oauth2/token',
): Promise<HostileServer> => {
  let sent = 0;
  const count = (n: number) => {
    sent += n;
  };
  const timers = new Set<NodeJS.Timeout>();
  const server = createServer((req, res) => {
    req.resume();
    if (req.method !== 'POST' || req.url !== tokenPath) {
      res.writeHead(404).end();
      return;
    }
    req.on('end', () => {
      switch (mode) {
        case 'hang':
          return;
        case 'reset':
          return void req.socket.resetAndDestroy();
        case 'garbage':
          req.socket.end('SSH-2.0-not-http\r\n\u0000\u0001garbage\r\n\r\n');
          return;
        case 'drip': {
          res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
          const timer = setInterval(() => {
            count(1);
            res.write(' ');
          }, 1000);
          timers.add(timer);
          res.on('close', () => clearInterval(timer));
          return;
        }
        case 'status-500':
          res.writeHead(500, { 'content-type': 'text/plain' }).end('internal error');
          return;
        case 'huge':
          res.writeHead(200, {
            'content-type': 'application/json',
            'content-length': String(HUGE_BODY_BYTES + '{"access_token":"'.length),
          });
          return stream(res, count, HUGE_BODY_BYTES);
        case 'endless':
          res.writeHead(200, { 'content-type': 'application/json' });
          return stream(res, count);
      }
    });
  });
  const { port } = await listenOnLoopback(server);
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    authUrl: `${origin}${tokenPath}`,
    bodyBytesSent: () => sent,
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearInterval(timer);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};
