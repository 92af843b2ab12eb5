import { createHash } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import { afterEach, expect } from 'vitest';
import { ApiClient, HttpClient, TokenManager } from '../../src/client/index.ts';
import { listenOnLoopback } from '../support/listen.ts';

/** What `promise` rejects with, asserted to be a `type` (a fulfilled promise fails the assertion). */
export const rejectedWith = async <E extends Error>(
  type: abstract new (...args: never[]) => E,
  promise: Promise<unknown>,
): Promise<E> => {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(type);
  return error as E;
};

export interface Recorded {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

export interface TestServer {
  readonly origin: string;
  readonly requests: Recorded[];
  close(): Promise<void>;
}

/** A node:http server on 127.0.0.1 that records every request (with its full body) before handing it over. */
export const startServer = async (
  handle: (req: Recorded, res: ServerResponse) => void,
): Promise<TestServer> => {
  const requests: Recorded[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const recorded = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(recorded);
      handle(recorded, res);
    });
  });
  const { port } = await listenOnLoopback(server);
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};

export const sendJson = (
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
};

export const CLIENT = { client_id: 'harness-client', client_secret: 'S3cr3t+/=&value with spaces' } as const;
export const TENANT = 't-42';
export const TOKEN_PATH = '/oauth2/token';

export interface FakeTarget extends TestServer {
  readonly authUrl: string;
  /** Every access_token handed out, in order. */
  readonly issued: string[];
  tokenRequests(): Recorded[];
  apiRequests(): Recorded[];
  /** Makes every token issued so far answer 401, as after expiry. */
  expireAll(): void;
  /** Replaces the token endpoint's answer from now on; a string body is sent as is, anything else as JSON. */
  breakTokenEndpoint(status: number, body: unknown): void;
  /** Makes the API answer 401 to every token, fresh or not. */
  rejectAll(): void;
}

/** Token endpoint plus API: valid bearer gets 200 echoing the request; the echo lets tests see leaks in responses. */
export const startTarget = async (expiresIn = 3600): Promise<FakeTarget> => {
  const issued: string[] = [];
  const valid = new Set<string>();
  let broken: { status: number; body: unknown } | undefined;
  let rejectAll = false;
  const server = await startServer((req, res) => {
    if (req.url === TOKEN_PATH) {
      if (typeof broken?.body === 'string') {
        res.writeHead(broken.status, { 'content-type': 'text/plain' });
        return res.end(broken.body);
      }
      if (broken !== undefined) return sendJson(res, broken.status, broken.body);
      const form = new URLSearchParams(req.body);
      if (form.get('client_id') !== CLIENT.client_id || form.get('client_secret') !== CLIENT.client_secret) {
        return sendJson(res, 400, { error: 'invalid_client' });
      }
      const n = issued.length + 1;
      const token = `tok${n}.${createHash('sha256').update(`token ${n}`).digest('base64url')}`;
      issued.push(token);
      valid.add(token);
      return sendJson(res, 200, { access_token: token, expires_in: expiresIn, token_type: 'Bearer' });
    }
    const token = req.headers.authorization?.replace(/^Bearer /, '') ?? '';
    if (rejectAll || !valid.has(token)) return sendJson(res, 401, { error: 'invalid_token' });
    sendJson(res, 200, { echo: req }, { 'x-echo-authorization': req.headers.authorization ?? '' });
  });
  const isToken = (r: Recorded) => r.url === TOKEN_PATH;
  return {
    ...server,
    authUrl: `${server.origin}${TOKEN_PATH}`,
    issued,
    tokenRequests: () => server.requests.filter(isToken),
    apiRequests: () => server.requests.filter((r) => !isToken(r)),
    expireAll: () => valid.clear(),
    breakTokenEndpoint: (status, body) => {
      broken = { status, body };
    },
    rejectAll: () => {
      rejectAll = true;
    },
  };
};

/** Registers closers that run after each test of the file that calls it: servers and clients a test opened. */
export const closeAfterEach = (): ((...closers: (() => Promise<void>)[]) => void) => {
  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    await Promise.all(closers.splice(0).map((close) => close()));
  });
  return (...more) => {
    closers.push(...more);
  };
};

/** A fake target and a client stack against it (one HttpClient, its TokenManager and ApiClient), closed by `cleanup`. */
export const connect = async (
  cleanup: ReturnType<typeof closeAfterEach>,
  baseUrl = (t: FakeTarget) => t.origin,
) => {
  const target = await startTarget();
  const http = new HttpClient();
  cleanup(
    () => http.close(),
    () => target.close(),
  );
  const tokens = new TokenManager({ authUrl: target.authUrl, tenant: TENANT, http });
  return { target, http, tokens, api: new ApiClient({ baseUrl: baseUrl(target), http, tokens }) };
};
