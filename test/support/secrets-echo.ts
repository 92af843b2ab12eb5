// A target on 127.0.0.1 that hands every secret it is sent straight back: in its bodies, as header values and as
// header names; and that issues access tokens as large as a 64 KiB body allows (40 KB, then just under 64 KiB, a
// fresh one each time). Whatever harness writes after talking to it must hold none of them.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

export const TOKEN_PATH = '/oauth2/token';
/** The larger token's size: its JSON answer, echo included, stays under the 64 KiB harness reads. */
const TOKEN_SIZES = [40 * 1024, 64 * 1024 - 1024];
/** Echoed as header values and names only when short: undici refuses answers with over 16 KiB of headers. */
const MAX_ECHOED_HEADER = 256;
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

export interface EchoServer {
  readonly origin: string;
  /** Every access token issued so far. */
  readonly issued: string[];
  close(): Promise<void>;
}

const readBody = (req: IncomingMessage): Promise<string> =>
  new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });

/** What the request carried that a server could echo: header values, the form's values, the query's values. */
const valuesOf = (req: IncomingMessage, body: string): string[] => {
  const url = new URL(req.url ?? '/', 'http://x');
  const form = req.headers['content-type']?.startsWith('application/x-www-form-urlencoded')
    ? [...new URLSearchParams(body).values()]
    : [];
  const headers = Object.values(req.headers).flatMap((v) => (v === undefined ? [] : [v].flat()));
  const bearer = headers.map((v) => /^bearer (.+)$/i.exec(v)?.[1]).filter((v) => v !== undefined);
  return [...headers, ...bearer, ...form, ...url.searchParams.values()];
};

export const startSecretsEcho = async (): Promise<EchoServer> => {
  const issued: string[] = [];
  // Bearer tokens of 64 KiB arrive in request headers.
  const server = createServer({ maxHeaderSize: 256 * 1024 }, async (req, res) => {
    const body = await readBody(req);
    const values = valuesOf(req, body);
    for (const [i, value] of values.entries()) {
      if (value.length > MAX_ECHOED_HEADER || /[^\x20-\x7e]/.test(value)) continue;
      res.setHeader(`x-echo-${i}`, value);
      if (HEADER_NAME.test(value)) res.setHeader(`x-${value}`, 'echoed');
    }
    const echo = { url: req.url, headers: req.headers, body, values };
    if (req.method === 'POST' && req.url === TOKEN_PATH) {
      const size = TOKEN_SIZES[issued.length % TOKEN_SIZES.length]!;
      const token = randomBytes(size).toString('base64url').slice(0, size);
      issued.push(token);
      res.writeHead(200, {
        'content-type': 'application/json',
        'cache-control': 'no-store',
        pragma: 'no-cache',
      });
      res.end(JSON.stringify({ access_token: token, token_type: 'Bearer', expires_in: 3600, echo: body }));
      return;
    }
    res.writeHead(req.method === 'HEAD' ? 404 : 200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ echo, batch_id: 'b-1', id: 'x-1' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    issued,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};
