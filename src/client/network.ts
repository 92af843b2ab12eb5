// How harness reaches a target beyond its URLs: TLS material, and the forward proxy of an enterprise network.
import { type ConnectionOptions, createSecureContext, rootCertificates } from 'node:tls';

export interface TlsOptions {
  /** PEM: an extra CA to trust beside Node's own roots (a private CA). */
  readonly ca?: Buffer;
  /** PEM: a client certificate and its key, for mutual TLS. */
  readonly cert?: Buffer;
  readonly key?: Buffer;
  /** Skip certificate verification (a run with it cannot certify anything). */
  readonly insecure?: boolean;
}

export interface ProxyOptions {
  readonly httpProxy?: string;
  readonly httpsProxy?: string;
  readonly noProxy?: string;
}

/** HTTP_PROXY, HTTPS_PROXY and NO_PROXY, the lower-case spelling first as curl and undici read them; empty is unset. */
export const proxyFromEnv = (env: NodeJS.ProcessEnv): ProxyOptions => {
  const pick = (name: string) => env[name.toLowerCase()] || env[name];
  const httpProxy = pick('HTTP_PROXY');
  const httpsProxy = pick('HTTPS_PROXY');
  const noProxy = pick('NO_PROXY');
  return {
    ...(httpProxy ? { httpProxy } : {}),
    ...(httpsProxy ? { httpsProxy } : {}),
    ...(noProxy ? { noProxy } : {}),
  };
};

/**
 * Node's TLS options for connections to the target. An extra CA adds to the roots rather than replacing them. One
 * secure context serves every connection: built per connection, parsing Node's 140-odd roots costs more CPU than
 * the handshake itself, and a probe's burst opens hundreds.
 */
export const tlsConnectOptions = (tls: TlsOptions): ConnectionOptions => {
  const context = {
    ...(tls.ca ? { ca: [...rootCertificates, tls.ca.toString('utf8')] } : {}),
    ...(tls.cert ? { cert: tls.cert } : {}),
    ...(tls.key ? { key: tls.key } : {}),
  };
  return {
    ...(Object.keys(context).length > 0 ? { secureContext: createSecureContext(context) } : {}),
    ...(tls.insecure ? { rejectUnauthorized: false } : {}),
  };
};
