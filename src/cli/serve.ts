import { readFileSync, writeFileSync } from 'node:fs';
import { stringify } from 'yaml';
import {
  FAULTS,
  type FaultName,
  type LimiterKind,
  type ReferenceServerOptions,
  startReferenceServer,
  type TokenKind,
} from '../reference/index.ts';
import { type NetworkCondition, startReferenceBehind } from '../testbed/toxiproxy.ts';
import { UsageError } from './errors.ts';
import type { LimitOverrides } from './parse.ts';

interface ServeOptions {
  host: string;
  port: number;
  fault?: FaultName;
  listFaults?: boolean;
  minuteMs?: number;
  tokenLifetime?: number;
  limit: LimitOverrides;
  limiter: LimiterKind;
  limitBeforeAuth?: boolean;
  tokens: TokenKind;
  network?: NetworkCondition;
  profileOut?: string;
  tlsCert?: string;
  tlsKey?: string;
  tlsClientCa?: string;
}

const listFaults = (): void => {
  const width = Math.max(...FAULTS.map((f) => f.name.length));
  for (const fault of FAULTS)
    console.log(`${fault.name.padEnd(width)}  ${fault.clause.padEnd(16)} ${fault.rule}`);
};

const readFlagFile = (flag: string, path: string): Buffer => {
  try {
    return readFileSync(path);
  } catch (error) {
    throw new UsageError(`${flag} ${path}: cannot read (${(error as NodeJS.ErrnoException).code ?? error})`);
  }
};

/** HTTPS when given a certificate and its key; mutual TLS when also given the CA that signs client certificates. */
const tlsOf = (options: ServeOptions) => {
  const { tlsCert, tlsKey, tlsClientCa } = options;
  if (tlsCert === undefined && tlsKey === undefined) {
    if (tlsClientCa !== undefined) throw new UsageError('--tls-client-ca needs --tls-cert and --tls-key');
    return undefined;
  }
  if (tlsCert === undefined || tlsKey === undefined)
    throw new UsageError(tlsCert === undefined ? '--tls-key needs --tls-cert' : '--tls-cert needs --tls-key');
  return {
    cert: readFlagFile('--tls-cert', tlsCert),
    key: readFlagFile('--tls-key', tlsKey),
    ...(tlsClientCa === undefined ? {} : { clientCa: readFlagFile('--tls-client-ca', tlsClientCa) }),
  };
};

export const serve = async (options: ServeOptions): Promise<void> => {
  if (options.listFaults) return listFaults();
  const tls = tlsOf(options);
  const serverOptions: ReferenceServerOptions = {
    host: options.host,
    port: options.port,
    fault: options.fault,
    minuteMs: options.minuteMs,
    tokenLifetimeSeconds: options.tokenLifetime,
    limits: options.limit,
    limiter: options.limiter,
    limitBeforeAuth: options.limitBeforeAuth ?? false,
    tokens: options.tokens,
    ...(tls === undefined ? {} : { tls }),
  };
  const running = await (options.network === undefined
    ? startReferenceServer(serverOptions).then((server) => ({
        server,
        profile: server.profile(),
        proxy: undefined,
        close: () => server.close(),
      }))
    : startReferenceBehind(options.network, serverOptions)
  ).catch((error: Error) => {
    throw new UsageError(`serve: ${error.message}`);
  });
  const { server } = running;
  const profile = stringify(running.profile);
  if (options.profileOut) writeFileSync(options.profileOut, profile);
  const primary = server.clients.primary;
  console.log(`harness reference server listening on ${server.baseUrl}`);
  if (running.proxy) {
    console.log(
      `network: ${options.network}, through Toxiproxy at ${running.proxy.origin} (the profile points there)`,
    );
  }
  console.log(`fault: ${options.fault ?? 'none (faithful to SPEC.md)'}`);
  console.log(`tokens: ${options.tokens === 'jwt' ? 'JWTs signed ES256 with jose' : 'opaque'}`);
  if (tls) console.log(`tls: HTTPS${tls.clientCa ? ', client certificates required (mutual TLS)' : ''}`);
  console.log(
    `limiter: ${options.limiter}${options.limitBeforeAuth ? ', counted before auth (gateway mode)' : ''}`,
  );
  console.log(
    `try: curl -s ${server.authUrl} -d grant_type=client_credentials -d client_id=${primary.client_id} ` +
      `-d client_secret=${primary.client_secret} -d scope=tenant/${primary.tenant}`,
  );
  console.log(`# profile for this server (its secrets are local to this process)\n${profile}`);
  if (options.profileOut) console.log(`# profile written to ${options.profileOut}`);
  await new Promise<void>((resolve) => {
    const stop = () => void running.close().then(resolve);
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
};
