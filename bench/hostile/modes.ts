// The hostile modes of issue 13, each a target from test/support (or the reference server) and the command a user
// would run against it, with the exit codes the issue allows. Short timings (2 s minutes, 5 s tokens, --only,
// --deadline) keep the whole set to a few minutes.
import { generateKeyPairSync } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { gunzipSync, gzipSync } from 'node:zlib';
import { sealArchive } from '../../src/certify/manifest.ts';
import { tarGz } from '../../src/certify/tar.ts';
import { MAX_ARCHIVE_BYTES } from '../../src/certify/untar.ts';
import { startReferenceServer } from '../../src/reference/index.ts';
import type { Profile } from '../../src/spec/index.ts';
import { AT, BODY, FILES } from '../../test/certify/fixture.ts';
import { profileFile } from '../../test/cli/run.ts';
import { type LoadTargetOptions, startLoadTarget } from '../../test/support/load-target.ts';
import { type NoVerdictMode, startNoVerdictTarget } from '../../test/support/no-verdict-target.ts';
import { ECHO_ENV, ECHO_PROFILE, startSecretsEcho } from '../../test/support/secrets-echo.ts';
import type { Mode } from './measure.ts';

const REFERENCE = { minuteMs: 2000, tokenLifetimeSeconds: 5 };
const API_KEY = 'bench-api-key-7f3e9a1c';

/** `conformance` against the target that echoes every secret it is sent, tokens issued included. */
const echo = (only: string, tokenInEveryAnswer?: number): Mode => ({
  exits: [1, 5],
  setup: async (work) => {
    const server = await startSecretsEcho(tokenInEveryAnswer === undefined ? {} : { tokenInEveryAnswer });
    writeFileSync(join(work, 'profile.yaml'), ECHO_PROFILE);
    const secrets = { ...ECHO_ENV, BASE_URL: server.origin };
    return {
      args: [
        'conformance',
        '--profile',
        'profile.yaml',
        '--only',
        only,
        '--deadline',
        '60s',
        '--report-dir',
        'reports',
      ],
      env: secrets,
      secrets,
      issued: () => server.issued,
      note: () => `${server.issued.length} tokens issued`,
      close: () => server.close(),
    };
  },
});

/** `conformance` against a reference server (its profile changed by `changes`), the given extra arguments. */
export const reference = (
  exits: number[],
  args: string[],
  options: Parameters<typeof startReferenceServer>[0] = {},
  changes: (profile: Profile) => Partial<Profile> = () => ({}),
): Mode => ({
  exits,
  setup: async (work) => {
    const server = await startReferenceServer({ ...REFERENCE, ...options });
    const base = server.profile();
    const { file, env } = profileFile({ ...base, ...changes(base) }, work);
    const all = { ...env, API_KEY };
    return {
      args: ['conformance', '--profile', file, '--report-dir', 'reports', ...args],
      env: all,
      secrets: all,
      issued: () => server.issuedTokens(),
      close: () => server.close(),
    };
  },
});

/** The API at a target that verifies nothing; its token endpoint too (`same`), or a working reference server's. */
const noVerdict = (mode: NoVerdictMode, tokens: 'working' | 'same'): Mode => ({
  exits: [1, 5],
  setup: async (work) => {
    const target = await startNoVerdictTarget(mode);
    const setup = await reference([], [], {}, () => ({
      base_url: target.origin,
      ...(tokens === 'same' ? { auth_url: target.authUrl } : {}),
    })).setup(work);
    return {
      ...setup,
      close: async () => {
        await target.close();
        await setup.close?.();
      },
    };
  },
});

/** The exit code of `harness` stopped by each signal: the shell's 128 + signal (SIGKILL: nothing of harness runs). */
const SIGNALLED = { SIGHUP: 129, SIGTERM: 143, SIGKILL: 137 } as const;

/** `conformance` against a reference server, sent `signal` once the token-expiry check waits. */
export const signalledConformance = (signal: 'SIGINT' | 'SIGHUP', exit: number): Mode => ({
  exits: [exit],
  setup: async (work) => ({
    ...(await reference([], []).setup(work)),
    interrupt: async (send, output) => {
      while (!/⏳ AUTH-TOKEN-EXPIRY: waiting/.test(output())) await delay(50);
      send(signal);
    },
  }),
});

/** `load --scenario transactions` against test/support/load-target.ts, counting what reached it. */
export const load = (
  options: LoadTargetOptions,
  extra: string[],
  { limit = 0, signal, to }: { limit?: number; signal?: keyof typeof SIGNALLED; to?: 'k6' } = {},
): Mode => ({
  // k6 killed alone: harness judges what its last checkpoint holds, and says why the rest went unjudged.
  exits: to === 'k6' ? [1, 5] : signal ? [SIGNALLED[signal]] : [0, 1, 5],
  setup: async (work) => {
    const target = await startLoadTarget(options);
    if (limit) target.profile.limits = { 'transaction-event': { count: limit, per: 'second' } };
    const { file, env } = profileFile(target.profile, work);
    const args = [
      'load',
      '--profile',
      file,
      '--scenario',
      'transactions',
      '--report-dir',
      'reports',
      ...extra,
    ];
    return {
      args,
      env,
      secrets: env,
      // The load target's tokens are `token-N`; quoted, so token-1 is not found inside token-12.
      issued: () => target.tokenRequests.map((_, i) => `token-${i + 1}"`),
      note: () => `${target.tokenRequests.length} token / ${target.apiRequests.length} API requests`,
      close: () => target.close(),
      ...(signal
        ? {
            interrupt: async (send: (name: NodeJS.Signals, to?: 'k6') => void, output: () => string) => {
              // k6 alone: once the first phase is over, which the third's start says (as the test waits for it).
              const ready = () =>
                to === 'k6'
                  ? output().includes('phase knee_transactions started')
                  : target.apiRequests.length >= 200;
              while (!ready()) {
                // A run that ended first has nothing left to interrupt.
                if (/^summary: /m.test(output())) return;
                await delay(50);
              }
              if (to === 'k6') await delay(500);
              send(signal, to);
            },
            // Killed, harness leaves its children to the watchdog, which gives k6 up to 3 s to stop.
            ...(signal === 'SIGKILL' && to === undefined ? { settleMs: 5000 } : {}),
          }
        : {}),
    };
  },
});

/** `verify` of an archive sealed with a fresh key, then changed by `spoil`. */
const verify = (spoil: (signedTar: Buffer) => Buffer): Mode => ({
  exits: [1],
  setup: async (work) => {
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    writeFileSync(join(work, 'signing.pub.pem'), publicKey.export({ type: 'spki', format: 'pem' }));
    writeFileSync(
      join(work, 'input.tgz'),
      spoil(gunzipSync(sealArchive(BODY, FILES, privateKey, AT).archive)),
    );
    return { args: ['verify', 'input.tgz', '--public-key', 'signing.pub.pem'] };
  },
});

const apiKeyHeader = (profile: Profile): Partial<Profile> => ({
  requests: {
    ...profile.requests,
    'GET /api/rules/schedule': {
      ...profile.requests?.['GET /api/rules/schedule'],
      headers: { 'x-api-key': '${API_KEY}' },
    },
  },
});

/** A kilobyte of YAML that would expand to 10^12 strings. */
const LAUGHS = [
  'a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]',
  ...Array.from({ length: 11 }, (_, i) => `a${i + 1}: &a${i + 1} [${Array(10).fill(`*a${i}`).join(', ')}]`),
].join('\n');

export const MODES: Record<string, Mode> = {
  'echo-40kb-64kib-tokens': echo('token,bearer,ENDPOINT-GET-API-RULES-STATUS-EXECUTION-ID'),
  'echo-fresh-8kb-token-every-answer': echo(
    'token,bearer,ENDPOINT-GET-API-RULES-STATUS-EXECUTION-ID',
    8 * 1024,
  ),
  'api-key-header': reference(
    [0],
    ['--only', 'token,bearer,ENDPOINT-GET-API-RULES-SCHEDULE'],
    {},
    apiKeyHeader,
  ),
  'base-url-userinfo': reference([2], [], {}, (p) => ({
    base_url: p.base_url.replace('http://', 'http://bench:${API_KEY}@'),
  })),
  'tenant-blocked-retry-after-3600': noVerdict('limited-3600', 'working'),
  'retry-after-22-digits': noVerdict('limited-huge', 'working'),
  'token-and-api-500': noVerdict('status-500', 'same'),
  'token-and-api-400': noVerdict('status-400', 'same'),
  'token-and-api-html': noVerdict('html', 'same'),
  'token-and-api-reset': noVerdict('reset', 'same'),
  'jwt-reference-server': reference([0], [], { tokens: 'jwt' }),
  // The archive's files are unpacked and searched too. Certify runs the slow checks, so the tokens must be short-lived
  // (AUTH-TOKEN-EXPIRY waits one out); with 5 s tokens load --scenario all leaves VUs without a token past the first
  // (the run's bound on token requests gives each VU a turn every VUs/10 s: docs/bounds.md), so load may end with no
  // verdict, naming that cause. 5 s tokens and 2 s minutes never certify, so certify exits 1 (issue 35), never 0.
  'certify-jwt-api-key': {
    exits: [1],
    setup: async (work) => {
      const setup = await reference([], [], { tokens: 'jwt' }, apiKeyHeader).setup(work);
      const { privateKey } = generateKeyPairSync('ed25519');
      writeFileSync(join(work, 'signing.pem'), privateKey.export({ type: 'pkcs8', format: 'pem' }));
      const profile = setup.args[setup.args.indexOf('--profile') + 1]!;
      return {
        ...setup,
        args: ['certify', '--profile', profile, '--key', 'signing.pem', '--out', 'out.tgz'],
      };
    },
  },
  'load-16mb-bodies': load({ apiBodyBytes: 16 * 1024 * 1024 }, ['--duration', '3s']),
  'load-token-503-600vus': load(
    { tokens: 3, expiresIn: 2, slowCalls: 1, slowMs: 800 },
    ['--duration', '3s'],
    { limit: 200 },
  ),
  'sigint-conformance': signalledConformance('SIGINT', 130),
  'sigterm-load': load({}, [], { signal: 'SIGTERM' }),
  'verify-gzip-bomb': verify((tar) =>
    gzipSync(Buffer.concat([tar, Buffer.alloc(MAX_ARCHIVE_BYTES)]), { level: 9 }),
  ),
  'verify-trailing-data': verify((tar) =>
    gzipSync(
      Buffer.concat([tar, gunzipSync(tarGz([{ path: 'SPEC.md', data: Buffer.from('# not it\n') }], AT))]),
    ),
  ),
  'yaml-alias-bomb': {
    exits: [2],
    setup: async (work) => {
      writeFileSync(join(work, 'bomb.yaml'), LAUGHS);
      return { args: ['conformance', '--profile', 'bomb.yaml', '--dry-run'] };
    },
  },
  'reports-latest-is-folder': {
    exits: [0],
    setup: async (work) => {
      mkdirSync(join(work, 'reports', 'latest'), { recursive: true });
      writeFileSync(join(work, 'reports', 'latest', 'conformance.json'), 'an earlier run');
      return { args: ['conformance', '--only', 'AUTH-TOKEN-FORM', '--report-dir', 'reports'] };
    },
  },
};
