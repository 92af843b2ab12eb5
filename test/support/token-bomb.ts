// A token endpoint that answers with a compression bomb: a few kilobytes that decode to a gigabyte. It issues the
// pre-flight's tokens (valid for two seconds), then answers every token request 200 with `Content-Encoding: br` or
// `gzip` over a body of zeros, whatever Accept-Encoding asked for; API calls with one of its tokens get 200. For the
// k6 token reader's test (test/load/token-bomb.test.ts) and its memory benchmark (bench/k6-hostile-memory.ts).
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { Transform } from 'node:stream';
import { constants, createBrotliCompress, createGzip } from 'node:zlib';
import type { Profile } from '../../src/spec/index.ts';
import { listenOnLoopback } from './listen.ts';

export type BombEncoding = 'br' | 'gzip';

/** `mib` MiB of zeros, compressed as a stream: 1 GiB takes about 2 s as brotli (1.6 KB), 5 s as gzip (1 MB). */
export const compressionBomb = async (encoding: BombEncoding, mib: number): Promise<Buffer> => {
  const stream: Transform =
    encoding === 'br'
      ? createBrotliCompress({ params: { [constants.BROTLI_PARAM_QUALITY]: 5 } })
      : createGzip({ level: 9 });
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  const zeros = Buffer.alloc(1024 * 1024);
  for (let i = 0; i < mib; i++) if (!stream.write(zeros)) await once(stream, 'drain');
  stream.end();
  await once(stream, 'end');
  return Buffer.concat(chunks);
};

export interface TokenBombServer {
  readonly profile: Profile;
  /** Token requests that got the bomb. */
  readonly bombsSent: () => number;
  close(): Promise<void>;
}

/**
 * Issues `issuing` tokens, then sends `bomb` as every token answer (none when `bomb` is undefined: tokens for an
 * hour); `apiHeaders` go on every API answer.
 */
export const startTokenBombServer = async (
  encoding: BombEncoding,
  bomb: Buffer | undefined,
  issuing = 3,
  apiHeaders: Readonly<Record<string, string>> = {},
): Promise<TokenBombServer> => {
  let tokenRequests = 0;
  const server = createServer((req, res) => {
    req.resume();
    if (req.method === 'POST' && req.url === '/oauth2/token') {
      tokenRequests++;
      if (bomb !== undefined && tokenRequests > issuing) {
        res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': encoding }).end(bomb);
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(
        JSON.stringify({
          access_token: `token-${tokenRequests}`,
          expires_in: bomb === undefined ? 3600 : 2,
          token_type: 'Bearer',
        }),
      );
      return;
    }
    const authorised = req.headers.authorization?.startsWith('Bearer token-');
    res.writeHead(authorised ? 200 : 401, { 'content-type': 'application/json', ...apiHeaders }).end('{}');
  });
  const { origin } = await listenOnLoopback(server);
  return {
    profile: {
      base_url: origin,
      auth_url: `${origin}/oauth2/token`,
      tenant: 'acme',
      clients: { primary: { client_id: 'load', client_secret: 'bomb-secret-7f3a' } },
      limits: { 'transaction-event': { count: 100, per: 'second' } },
    },
    bombsSent: () => (bomb === undefined ? 0 : Math.max(0, tokenRequests - issuing)),
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
};
