// A small target on 127.0.0.1 for `harness load` that costs the load generator what a broken server would: API
// answers with huge bodies, a token endpoint that stops issuing after the pre-flight, a pre-flight slow enough to
// size hundreds of VUs. It counts what reaches it, and when, so a test can bound what harness sent.
import { once } from 'node:events';
import { createServer, type ServerResponse } from 'node:http';
import type { Profile } from '../../src/spec/index.ts';
import { listenOnLoopback } from './listen.ts';

export interface LoadTargetOptions {
  /** Tokens issued before every token request is answered 503 (or, with `hugeTokens`, with a 16 MB token). */
  readonly tokens?: number;
  readonly hugeTokens?: boolean;
  /** `expires_in` of the tokens issued. */
  readonly expiresIn?: number;
  /** Bytes of every API answer's body (200, JSON). */
  readonly apiBodyBytes?: number;
  /** The first `slowCalls` API calls (the pre-flight's) are answered after `slowMs`, so k6 is sized for it. */
  readonly slowCalls?: number;
  readonly slowMs?: number;
}

export interface LoadTarget {
  readonly profile: Profile;
  /** Epoch ms of every token request, in arrival order. */
  readonly tokenRequests: readonly number[];
  /** Epoch ms of every API request, in arrival order. */
  readonly apiRequests: readonly number[];
  close(): Promise<void>;
}

const CHUNK = Buffer.alloc(64 * 1024, 'x');

/** A JSON string of `bytes` x's between `before` and `after`, written as fast as the reader takes it. */
const sendBody = (res: ServerResponse, bytes: number, before = '"', after = '"'): void => {
  const length = Buffer.byteLength(before) + bytes + Buffer.byteLength(after);
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(length) });
  res.write(before);
  let left = bytes;
  const pump = (): void => {
    while (left > 0 && !res.destroyed) {
      const chunk = CHUNK.subarray(0, Math.min(left, CHUNK.length));
      left -= chunk.length;
      if (!res.write(chunk)) return void res.once('drain', pump);
    }
    if (!res.destroyed) res.end(after);
  };
  pump();
};

export const startLoadTarget = async (options: LoadTargetOptions = {}): Promise<LoadTarget> => {
  const tokenRequests: number[] = [];
  const apiRequests: number[] = [];
  const server = createServer((req, res) => {
    req.resume();
    if (req.method === 'HEAD') return void res.writeHead(404).end();
    if (req.method === 'POST' && req.url === '/oauth2/token') {
      tokenRequests.push(Date.now());
      const failing = tokenRequests.length > (options.tokens ?? Number.POSITIVE_INFINITY);
      if (failing && options.hugeTokens) {
        return sendBody(
          res,
          16 * 1024 * 1024,
          '{"access_token":"',
          '","expires_in":3600,"token_type":"Bearer"}',
        );
      }
      if (failing) {
        res.writeHead(503, { 'content-type': 'application/json' }).end('{"error":"temporarily_unavailable"}');
        return;
      }
      const token = { access_token: `token-${tokenRequests.length}`, expires_in: options.expiresIn ?? 3600 };
      res
        .writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' })
        .end(JSON.stringify({ ...token, token_type: 'Bearer' }));
      return;
    }
    apiRequests.push(Date.now());
    const answer = () => sendBody(res, options.apiBodyBytes ?? 0);
    if (apiRequests.length <= (options.slowCalls ?? 0)) setTimeout(answer, options.slowMs ?? 0);
    else answer();
  });
  const { origin: url } = await listenOnLoopback(server);
  return {
    profile: {
      base_url: url,
      auth_url: `${url}/oauth2/token`,
      tenant: 'acme',
      clients: { primary: { client_id: 'load', client_secret: 'load-secret' } },
      limits: { 'transaction-event': { count: 100, per: 'second' } },
    },
    tokenRequests,
    apiRequests,
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
};
