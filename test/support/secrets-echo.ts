// A target on 127.0.0.1 that hands every secret it is sent straight back: in its bodies, as header values and as
// header names; and that issues access tokens as large as a 64 KiB body allows (40 KB, then just under 64 KiB, a
// fresh one each time). Whatever harness writes after talking to it must hold none of them.
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { escapeText } from '../../src/report/escape.ts';
import { listenOnLoopback } from './listen.ts';

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

/** A base64url token of `size` characters, never issued before. */
const freshToken = (size: number): string => randomBytes(size).toString('base64url').slice(0, size);

/**
 * `tokenInEveryAnswer`: every answer, the token endpoint's and the API's, carries a fresh access_token of that many
 * characters (instead of the token endpoint's 40 KB and 64 KiB ones).
 */
export const startSecretsEcho = async (
  options: { tokenInEveryAnswer?: number } = {},
): Promise<EchoServer> => {
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
      const size = options.tokenInEveryAnswer ?? TOKEN_SIZES[issued.length % TOKEN_SIZES.length]!;
      const token = freshToken(size);
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
    const extra = options.tokenInEveryAnswer;
    const answer = extra === undefined ? {} : { access_token: freshToken(extra) };
    if (answer.access_token !== undefined) issued.push(answer.access_token);
    res.end(JSON.stringify({ echo, batch_id: 'b-1', id: 'x-1', ...answer }));
  });
  const { port } = await listenOnLoopback(server);
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

/** The secrets a run against the echo server is given, from the environment as a user keeps them. */
export const ECHO_ENV = {
  SECRET_PRIMARY: 'cs-primary-0123456789abcdef',
  SECRET_SAME_TENANT: 'p@ss w/rd+&"same"',
  SECRET_RESTRICTED: 'cs-restricted-9876543210',
  SECRET_OTHER_TENANT: 'cs-other-tenant-ABCDEFGHIJ',
  API_KEY: 'api-key-value-5550123',
  EXECUTION_ID: 'exec-id-from-env-4242',
};

/** Even the target's URL comes from the environment ($BASE_URL): every value from a reference is a secret. */
export const ECHO_PROFILE = `
base_url: \${BASE_URL}
auth_url: \${BASE_URL}${TOKEN_PATH}
tenant: acme
clients:
  primary:      { client_id: app-1, client_secret: \${SECRET_PRIMARY} }
  same_tenant:  { client_id: app-2, client_secret: \${SECRET_SAME_TENANT} }
  restricted:   { client_id: app-3, client_secret: \${SECRET_RESTRICTED}, lacks: ["POST /api/rules/rerun"] }
  other_tenant: { client_id: app-4, client_secret: \${SECRET_OTHER_TENANT}, tenant: globex }
requests:
  "GET /api/rules/schedule": { query: { date: "2026-11-21" }, headers: { x-api-key: \${API_KEY} } }
  "POST /api/rules/rerun": { headers: { x-api-key: \${API_KEY} } }
ids:
  execution_id: { value: \${EXECUTION_ID} }
side_effects: allow
`;

/** Every file under `dir`, as text. */
export const filesUnder = (dir: string): Map<string, string> => {
  const files = new Map<string, string>();
  for (const name of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    const path = join(dir, name);
    if (statSync(path).isFile()) files.set(path, readFileSync(path, 'utf8'));
  }
  return files;
};

/** `name in file` for each secret found in any of the texts, in any form it takes on the wire or in HTML and XML. */
export const secretsIn = (texts: Map<string, string>, secrets: Record<string, string>): string[] =>
  Object.entries(secrets).flatMap(([name, secret]) =>
    [...texts]
      .filter(([, text]) =>
        [secret, encodeURIComponent(secret), JSON.stringify(secret).slice(1, -1), escapeText(secret)].some(
          (form) => text.includes(form),
        ),
      )
      .map(([file]) => `${name} in ${file}`),
  );
