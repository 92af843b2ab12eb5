import { readFileSync, writeFileSync } from 'node:fs';
import { stringify } from 'yaml';
import { HARNESS, harnessCommand } from '../command-line.ts';
import { InputError } from '../errors.ts';
import {
  FAULT_FACTORS,
  FAULTS,
  type ReferenceServerOptions,
  type RunningReferenceServer,
  startReferenceServer,
} from '../reference/index.ts';
import { startReferenceBehind } from '../reference/toxiproxy.ts';
import { table, terminalWidth } from '../text-table.ts';
import type { ServeOptions } from './commands.ts';

const listFaults = (): void => {
  const rows = FAULTS.map((fault) => {
    const factor = FAULT_FACTORS[fault.name];
    const scaled = factor ? ` (--fault-factor: ${factor.scales}; default ${+factor.default.toFixed(3)})` : '';
    return [fault.name, fault.clause, `${fault.rule}${scaled}`];
  });
  for (const line of table([['FAULT', 'CLAUSE', 'WHAT IT BREAKS'], ...rows], terminalWidth(process.stdout))) {
    console.log(line);
  }
};

const readFlagFile = (flag: string, path: string): Buffer => {
  try {
    return readFileSync(path);
  } catch (error) {
    throw new InputError(`${flag} ${path}: cannot read (${(error as NodeJS.ErrnoException).code ?? error})`);
  }
};

/** HTTPS when given a certificate and its key; mutual TLS when also given the CA that signs client certificates. */
const tlsOf = (options: ServeOptions) => {
  const { tlsCert, tlsKey, tlsClientCa } = options;
  if (tlsCert === undefined && tlsKey === undefined) {
    if (tlsClientCa !== undefined) throw new InputError('--tls-client-ca needs --tls-cert and --tls-key');
    return undefined;
  }
  if (tlsCert === undefined || tlsKey === undefined)
    throw new InputError(tlsCert === undefined ? '--tls-key needs --tls-cert' : '--tls-cert needs --tls-key');
  return {
    cert: readFlagFile('--tls-cert', tlsCert),
    key: readFlagFile('--tls-key', tlsKey),
    ...(tlsClientCa === undefined ? {} : { clientCa: readFlagFile('--tls-client-ca', tlsClientCa) }),
  };
};

/** What runs, how to try it, and what to run next: on stderr, beside the profile on stdout. */
const banner = (
  options: ServeOptions,
  proxy: string | undefined,
  server: RunningReferenceServer,
  tls: boolean,
): string[] => {
  const primary = server.clients.primary;
  const profileFile = options.profileOut ?? 'profile.yaml';
  return [
    `harness reference server listening on ${server.baseUrl}`,
    ...(proxy
      ? [`network: ${options.network}, through Toxiproxy at ${proxy} (the profile points there)`]
      : []),
    `fault: ${options.fault ?? 'none (faithful to SPEC.md)'}${options.faultFactor === undefined ? '' : `, factor ${options.faultFactor}`}`,
    `tokens: ${options.tokens === 'jwt' ? 'JWTs signed ES256 with jose' : 'opaque'}`,
    `RateLimit fields: ${options.ratelimitFields ?? 'none (SPEC.md asks for none)'}`,
    ...(tls ? [`tls: HTTPS${options.tlsClientCa ? ', client certificates required (mutual TLS)' : ''}`] : []),
    `limiter: ${options.limiter}${options.limitBeforeAuth ? ', counted before auth (gateway mode)' : ''}`,
    `try: curl -s ${server.authUrl} -d grant_type=client_credentials -d client_id=${primary.client_id} ` +
      `-d client_secret=${primary.client_secret} -d scope=tenant/${primary.tenant}`,
    options.profileOut
      ? `profile written to ${options.profileOut} (and printed on stdout)`
      : `profile printed on stdout: \`${HARNESS} serve > profile.yaml\` saves it (or --profile-out FILE)`,
    `next, in another terminal: ${harnessCommand(['conformance', '--profile', profileFile])}  ` +
      `(then: ${harnessCommand(['load', '--profile', profileFile])})`,
    'stop with Ctrl-C',
  ];
};

export const serve = async (options: ServeOptions): Promise<void> => {
  if (options.listFaults) return listFaults();
  const tls = tlsOf(options);
  const serverOptions: ReferenceServerOptions = {
    host: options.host,
    port: options.port,
    fault: options.fault,
    ...(options.faultFactor === undefined ? {} : { faultFactor: options.faultFactor }),
    minuteMs: options.minuteMs,
    tokenLifetimeSeconds: options.tokenLifetime,
    limits: options.limit,
    limiter: options.limiter,
    limitBeforeAuth: options.limitBeforeAuth ?? false,
    tokens: options.tokens,
    ...(options.ratelimitFields === undefined ? {} : { rateLimitFields: options.ratelimitFields }),
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
    throw new InputError(`serve: ${error.message}`);
  });
  const { server } = running;
  const profile = stringify(running.profile);
  if (options.profileOut) writeFileSync(options.profileOut, profile);
  // stdout carries the profile alone, so `harness serve > profile.yaml` writes valid YAML; the rest is for a person.
  console.log(
    `# harness serve: profile for ${running.profile.base_url} (its secrets are local to this process)\n${profile}`,
  );
  for (const line of banner(options, running.proxy?.origin, server, tls !== undefined)) console.error(line);
  await new Promise<void>((resolve) => {
    const stop = () => void running.close().then(resolve);
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
};
