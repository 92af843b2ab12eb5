// The hostile modes of issue 22, beside issue 13's (modes.ts): redirects that would carry credentials elsewhere, the
// ways a run can end that no handler sees coming, manifests and plans that must print no secret.
import { generateKeyPairSync } from 'node:crypto';
import { readdirSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sealArchive } from '../../src/certify/manifest.ts';
import { startReferenceServer } from '../../src/reference/index.ts';
import type { Profile } from '../../src/spec/index.ts';
import { AT, BODY, FILES } from '../../test/certify/fixture.ts';
import { profileFile } from '../../test/cli/run.ts';
import { NETWORKS, SIMULATED_RUNNER, simulate } from '../../test/load/simulate.ts';
import { routedThrough, startForwarding, startSink, type Tamper } from '../../test/support/forward.ts';
import type { Mode } from './measure.ts';
import { load, signalledConformance } from './modes.ts';

const REFERENCE = { minuteMs: 2000, limits: { 'transaction-event': { count: 200, per: 'second' } } } as const;
const TOKEN_PATH = '/oauth2/token';
const API_KEY = 'bench-api-key-c04d7e2b';

/** `load` through a forwarder that answers 307 to the sink for every path `redirects` picks. */
const redirecting = (redirects: (path: string) => boolean, exits: number[]): Mode => ({
  exits,
  setup: async (work) => {
    const sink = await startSink();
    const server = await startReferenceServer(REFERENCE);
    const profile = server.profile();
    const proxy = await startForwarding(new URL(profile.base_url).origin, ({ path }) =>
      redirects(path) ? { status: 307, location: `${sink.origin}${path}` } : undefined,
    );
    const { file, env } = profileFile({ ...profile, ...routedThrough(profile, proxy.origin) }, work);
    return {
      args: [
        'load',
        '--profile',
        file,
        '--scenario',
        'transactions',
        '--duration',
        '3s',
        '--report-dir',
        'reports',
      ],
      env,
      secrets: env,
      issued: () => server.issuedTokens(),
      note: () => `${sink.received()} requests where the redirects pointed`,
      problems: () => (sink.received() > 0 ? [`${sink.received()} requests followed a redirect`] : []),
      close: async () => {
        await proxy.close();
        await server.close();
        await sink.close();
      },
    };
  },
});

/** The reference server's profile with its base URL and an API key from ${VAR}. */
const fromVariables = (profile: Profile): Partial<Profile> => ({
  base_url: '${BASE_URL}',
  auth_url: profile.auth_url.replace(profile.base_url, '${BASE_URL}'),
  requests: {
    ...profile.requests,
    'POST /event/transaction/v3': {
      ...profile.requests?.['POST /event/transaction/v3'],
      headers: { 'x-api-key': '${API_KEY}' },
    },
  },
});

/** A command on a ${VAR} profile of a reference server that sends nothing, or only what `args` makes it. */
const variables = (args: string[]): Mode => ({
  exits: [0],
  setup: async (work) => {
    const server = await startReferenceServer(REFERENCE);
    const base = server.profile();
    const { file, env } = profileFile({ ...base, ...fromVariables(base) }, work);
    const all = { ...env, BASE_URL: base.base_url, API_KEY };
    return { args: [...args, '--profile', file], env: all, secrets: all, close: () => server.close() };
  },
});

/** `conformance --only <only>` through a forwarder whose `tamper` (given the run's folder) answers some requests. */
const through = (only: string, exits: number[], tamper: (runs: string) => Tamper): Mode => ({
  exits,
  setup: async (work) => {
    const server = await startReferenceServer(REFERENCE);
    const profile = server.profile();
    const proxy = await startForwarding(new URL(profile.base_url).origin, tamper(join(work, 'reports')));
    const { file, env } = profileFile({ ...profile, ...routedThrough(profile, proxy.origin) }, work);
    return {
      args: ['conformance', '--profile', file, '--only', only, '--report-dir', 'reports'],
      env,
      secrets: env,
      issued: () => server.issuedTokens(),
      close: async () => {
        await proxy.close();
        await server.close();
      },
    };
  },
});

const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

/** A token answer whose fields nest 5,000 deep: JSON.stringify overflowed quoting one (a harness ERROR, exit 4). */
const deepToken: Tamper = ({ method, path }) =>
  method === 'POST' && path === TOKEN_PATH
    ? {
        status: 200,
        body: `{"access_token":${nested(5000)},"token_type":${nested(5000)},"expires_in":${nested(5000)}}`,
      }
    : undefined;

/** At the run's first request, its folder (made by then) becomes a file: no report can be written. */
const folderTakenAway =
  (runs: string): Tamper =>
  () => {
    for (const name of readdirSync(runs).filter((n) => /^\d{4}-/.test(n))) {
      if (!statSync(join(runs, name)).isDirectory()) continue;
      renameSync(join(runs, name), join(runs, `${name}-moved`));
      writeFileSync(join(runs, name), '');
    }
    return undefined;
  };

/** `load merge` of a faithful runner's summary whose first phase claims ten times the requests it offered. */
const forgedSummary: Mode = {
  exits: [2],
  setup: async (work) => {
    const summary = simulate({ kind: 'aligned', network: NETWORKS.lan }, { scenarios: ['transactions'] });
    const [first] = summary.phases;
    const forged = {
      runner: SIMULATED_RUNNER,
      ...summary,
      phases: [{ ...first!, admitted: first!.offered * 10 }, ...summary.phases.slice(1)],
    };
    writeFileSync(join(work, 'runner-1.json'), JSON.stringify(forged));
    return { args: ['load', 'merge', 'runner-1.json', '--report-dir', 'reports'] };
  },
};

/** `verify` of an archive signed with a fresh key whose manifest lists one file twice. */
const listedTwice: Mode = {
  exits: [1],
  setup: async (work) => {
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    writeFileSync(join(work, 'signing.pub.pem'), publicKey.export({ type: 'spki', format: 'pem' }));
    writeFileSync(join(work, 'input.tgz'), sealArchive(BODY, [...FILES, FILES[0]!], privateKey, AT).archive);
    return { args: ['verify', 'input.tgz', '--public-key', 'signing.pub.pem'] };
  },
};

export const SECOND_ROUND: Record<string, Mode> = {
  'load-token-redirect': redirecting((path) => path === TOKEN_PATH, [3]),
  'load-api-redirect': redirecting((path) => path !== TOKEN_PATH, [1, 5]),
  'sighup-load': load({}, [], { signal: 'SIGHUP' }),
  'sigkill-load': load({}, [], { signal: 'SIGKILL' }),
  // The OOM killer: k6 alone killed, once the first phase is over.
  'sigkill-k6': load({}, [], { signal: 'SIGKILL', to: 'k6' }),
  'sighup-conformance': signalledConformance('SIGHUP', 129),
  'k8s-manifests-var-secrets': variables(['load', '--k8s', 'k8s', '--image', 'k6:test']),
  'dry-run-var-base-url': variables(['conformance', '--dry-run']),
  'token-fields-5000-deep': through('token', [1], () => deepToken),
  'report-folder-taken-away': through('AUTH-TOKEN-FORM', [6], folderTakenAway),
  'load-merge-forged-counts': forgedSummary,
  'verify-file-listed-twice': listedTwice,
};
