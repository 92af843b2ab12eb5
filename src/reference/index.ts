// A faithful server for SPEC.md, to run harness against, with optional fault injection (see faults.ts).
import { createServer, type RequestListener } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { Profile } from '../spec/index.ts';
import { createApp, TOKEN_PATH } from './app.ts';
import { createJwtTokens, type JwtTokens } from './jwt.ts';
import {
  type ReferenceClients,
  type ReferenceServerOptions,
  type ResolvedReferenceOptions,
  resolveOptions,
} from './options.ts';
import { buildProfile } from './profile.ts';

export { FAULT_FACTORS, FAULTS, type FaultName } from './faults.ts';
export { LIMITER_KINDS, type LimiterKind } from './limiter-kinds.ts';
export type { ReferenceClients, ReferenceServerOptions, ResolvedReferenceOptions } from './options.ts';
export { EMBEDDED_SCALE, TOKEN_KINDS } from './options.ts';
export { createJwtTokens, type JwtTokens };

export interface RunningReferenceServer {
  readonly baseUrl: string;
  readonly authUrl: string;
  readonly clients: ReferenceClients;
  readonly options: ResolvedReferenceOptions;
  /** A fresh profile for this server, secrets included (the server only listens on loopback). */
  profile(): Profile;
  /** Every access token issued so far (the last 10,000), so tests can prove none leaked into an artifact. */
  issuedTokens(): readonly string[];
  /** Every request that reached the server, of any kind, so tests can hold a client to a request budget. */
  requestsServed(): number;
  close(): Promise<void>;
}

export interface ReferenceListener {
  readonly listener: RequestListener;
  readonly options: ResolvedReferenceOptions;
  /** A fresh profile for this server at `baseUrl`, secrets included. */
  profile(): Profile;
}

/**
 * The server on no socket: its request listener, for a test's simulated network to hand requests to in-process.
 * `jwt` signs its tokens when `tokens: 'jwt'` (the caller's, so a virtual clock can wait out WebCrypto's real time).
 */
export const referenceListener = (
  options: ReferenceServerOptions,
  baseUrl: string,
  jwt?: JwtTokens,
): ReferenceListener => {
  const resolved = resolveOptions(options);
  if (resolved.tokens === 'jwt' && jwt === undefined)
    throw new RangeError('tokens: jwt needs the JWT signer');
  const app = createApp(resolved, resolved.tokens === 'jwt' ? jwt : undefined);
  app.setBaseUrl(baseUrl);
  return {
    listener: app.listener,
    options: resolved,
    profile: () => buildProfile(resolved, baseUrl, `${baseUrl}${TOKEN_PATH}`),
  };
};

export async function startReferenceServer(
  options?: ReferenceServerOptions,
): Promise<RunningReferenceServer> {
  const resolved = resolveOptions(options);
  const app = createApp(resolved, resolved.tokens === 'jwt' ? await createJwtTokens() : undefined);
  const tls = options?.tls;
  const server = tls
    ? createHttpsServer(
        {
          cert: tls.cert,
          key: tls.key,
          // Mutual TLS: a client without a certificate this CA signed fails the handshake, as at a real gateway.
          ...(tls.clientCa ? { ca: tls.clientCa, requestCert: true, rejectUnauthorized: true } : {}),
        },
        app.listener,
      )
    : createServer(app.listener);
  let served = 0;
  server.on('request', () => {
    served += 1;
  });
  // Longer than load generators keep idle connections (k6, undici), so the server never closes one just as a client
  // reuses it: that race shows up as a stray connection error in a slow probe (one request a window).
  server.keepAliveTimeout = 120_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(resolved.port, resolved.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const host = resolved.host.includes(':') ? `[${resolved.host}]` : resolved.host;
  const baseUrl = `${tls ? 'https' : 'http'}://${host}:${port}`;
  const authUrl = `${baseUrl}${TOKEN_PATH}`;
  app.setBaseUrl(baseUrl);
  return {
    baseUrl,
    authUrl,
    clients: resolved.clients,
    options: { ...resolved, port },
    profile: () => buildProfile(resolved, baseUrl, authUrl),
    issuedTokens: () => app.issuedTokens(),
    requestsServed: () => served,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        // Keep-alive connections would otherwise hold close() open until they time out.
        server.closeAllConnections();
      }),
  };
}
