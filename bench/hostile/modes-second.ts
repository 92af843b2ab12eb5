// The hostile modes of issue 22, beside issue 13's (modes.ts): redirects that would carry credentials elsewhere, the
// ways a run can end that no handler sees coming, manifests and plans that must print no secret.
import { setTimeout as delay } from 'node:timers/promises';
import { startReferenceServer } from '../../src/reference/index.ts';
import type { Profile } from '../../src/spec/index.ts';
import { profileFile } from '../../test/cli/run.ts';
import { startForwarding, startSink } from '../../test/support/forward.ts';
import type { Mode } from './measure.ts';
import { load, reference } from './modes.ts';

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
    const through = (url: string) => `${proxy.origin}${new URL(url).pathname}`;
    const { file, env } = profileFile(
      { ...profile, base_url: through(profile.base_url), auth_url: through(profile.auth_url) },
      work,
    );
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

export const SECOND_ROUND: Record<string, Mode> = {
  'load-token-redirect': redirecting((path) => path === TOKEN_PATH, [3]),
  'load-api-redirect': redirecting((path) => path !== TOKEN_PATH, [1, 5]),
  'sighup-load': load({}, [], { signal: 'SIGHUP' }),
  'sigkill-load': load({}, [], { signal: 'SIGKILL' }),
  'sighup-conformance': {
    exits: [129],
    setup: async (work) => ({
      ...(await reference([], []).setup(work)),
      interrupt: async (signal, output) => {
        while (!/⏳ AUTH-TOKEN-EXPIRY: waiting/.test(output())) await delay(50);
        signal('SIGHUP');
      },
    }),
  },
  'k8s-manifests-var-secrets': variables(['load', '--k8s', 'k8s', '--image', 'k6:test']),
  'dry-run-var-base-url': variables(['conformance', '--dry-run']),
};
