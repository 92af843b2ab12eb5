import { writeFileSync } from 'node:fs';
import { stringify } from 'yaml';
import {
  FAULTS,
  type FaultName,
  type LimiterKind,
  type ReferenceServerOptions,
  startReferenceServer,
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
  network?: NetworkCondition;
  profileOut?: string;
}

const listFaults = (): void => {
  const width = Math.max(...FAULTS.map((f) => f.name.length));
  for (const fault of FAULTS)
    console.log(`${fault.name.padEnd(width)}  ${fault.clause.padEnd(16)} ${fault.rule}`);
};

export const serve = async (options: ServeOptions): Promise<void> => {
  if (options.listFaults) return listFaults();
  const serverOptions: ReferenceServerOptions = {
    host: options.host,
    port: options.port,
    fault: options.fault,
    minuteMs: options.minuteMs,
    tokenLifetimeSeconds: options.tokenLifetime,
    limits: options.limit,
    limiter: options.limiter,
    limitBeforeAuth: options.limitBeforeAuth ?? false,
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
