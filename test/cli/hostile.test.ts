// `harness conformance` as a new user meets a hostile target or a mistyped command line: each ends within its bound,
// with one line naming what is wrong and exit 2, or a verdict and a valid report.
import { existsSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_PROFILE_BYTES } from '../../src/profile/read.ts';
import { type RunningReferenceServer, startReferenceServer } from '../../src/reference/index.ts';
import { conformanceErrors } from '../../src/report/write.ts';
import { startHostile } from '../support/hostile.ts';
import { listenOnLoopback } from '../support/listen.ts';
import { harness, SIDE_BY_SIDE, tmp } from './run.ts';

const PROFILE = `base_url: http://127.0.0.1:9
auth_url: http://127.0.0.1:9/oauth2/token
tenant: acme
clients:
  primary: { client_id: a, client_secret: b }
`;

const profileFile = (text: string): string => {
  const file = join(tmp(), 'profile.yaml');
  writeFileSync(file, text);
  return file;
};

/** Bad input: exit 2 with exactly one line on stderr, which starts "harness:". */
const expectInputError = (result: { status: number | null; stderr: string }, line: string | RegExp) => {
  expect(result.status, result.stderr).toBe(2);
  const lines = result.stderr.trim().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(line);
};

// No test below shares state with another or times anything but its own process: they run side by side, as many
// at once as run.ts allows.
describe.concurrent('an unusable --report-dir', SIDE_BY_SIDE, () => {
  it('under a regular file: exit 2 naming the file, before anything runs', async () => {
    const file = join(tmp(), 'a-file');
    writeFileSync(file, '');
    const result = await harness(['conformance', '--report-dir', join(file, 'reports')], {}, 30_000);
    expectInputError(result, `harness: --report-dir ${join(file, 'reports')}: ${file} is not a directory`);
  });

  it('for load too: exit 2 naming the file, as for conformance', async () => {
    const file = join(tmp(), 'a-file');
    writeFileSync(file, '');
    const result = await harness(['load', '--report-dir', join(file, 'reports')], {}, 30_000);
    expectInputError(result, `harness: --report-dir ${join(file, 'reports')}: ${file} is not a directory`);
  });

  it.runIf(existsSync('/proc/self'))(
    'under /proc: exit 2 naming the directory it cannot create, instead of never ending',
    async () => {
      const result = await harness(['conformance', '--report-dir', '/proc/harness/reports'], {}, 30_000);
      expectInputError(
        result,
        /^harness: --report-dir \/proc\/harness\/reports: cannot create \/proc\/harness: E/,
      );
    },
  );
});

describe.concurrent('a bad profile or command line', SIDE_BY_SIDE, () => {
  it('refuses a profile over the size cap unparsed, naming it', async () => {
    const file = profileFile(`${PROFILE}# ${'x'.repeat(MAX_PROFILE_BYTES)}\n`);
    const result = await harness(['conformance', '--profile', file], {}, 30_000);
    expectInputError(
      result,
      `harness: --profile ${file}: larger than ${MAX_PROFILE_BYTES} bytes, the most a profile may be`,
    );
  });

  it('names a key given twice in one mapping', async () => {
    const file = profileFile(`${PROFILE}tenant: globex\n`);
    const result = await harness(['conformance', '--profile', file], {}, 30_000);
    expectInputError(
      result,
      `harness: ${file}: not valid YAML or JSON: the key 'tenant' appears twice in one mapping`,
    );
  });

  it('says a base_url that is no URL must be an http(s) URL, not the pattern behind it', async () => {
    const result = await harness(
      ['conformance', '--base-url', 'ftp://host', '--auth-url', 'http://127.0.0.1:9/t', '--tenant', 'acme'],
      { CLIENT_ID: 'a', CLIENT_SECRET: 'b' },
      30_000,
    );
    expectInputError(
      result,
      'harness: flags (--base-url, --auth-url, --tenant, --side-effects): /base_url: must be an http(s) URL',
    );
  });

  it('starts commander\'s own errors with "harness:" too', async () => {
    expectInputError(
      await harness(['conformance', '--no-such-flag'], {}, 30_000),
      "harness: unknown option '--no-such-flag'",
    );
    expectInputError(
      await harness(['conformance', '--deadline', 'soon'], {}, 30_000),
      /^harness: option '--deadline <d>' argument 'soon' is invalid/,
    );
  });

  it('echoes an unknown --only ID as it was typed', async () => {
    const result = await harness(['conformance', '--only', 'AUTH-Token-Nope'], {}, 30_000);
    expectInputError(result, 'harness: --only: unknown check ID or tag: AUTH-Token-Nope');
  });
});

describe('a target that accepts connections but never answers', () => {
  let silent: Server;
  const sockets = new Set<Socket>();
  let origin: string;
  beforeAll(async () => {
    // Holds every connection open and silent; closing drops them.
    silent = createServer((socket) => sockets.add(socket));
    ({ origin } = await listenOnLoopback(silent));
  });
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => silent.close(() => resolve()));
  });

  it('is unreachable (exit 3) after one request timeout: a TCP connect is no answer', async () => {
    const started = performance.now();
    const result = await harness(
      [
        'conformance',
        '--base-url',
        origin,
        '--auth-url',
        `${origin}/t`,
        '--tenant',
        'acme',
        '--timeout',
        '1000',
        '--report-dir',
        tmp(),
      ],
      { CLIENT_ID: 'a', CLIENT_SECRET: 'b' },
      30_000,
    );
    expect(result.status, result.stderr).toBe(3);
    expect(result.stderr).toContain(`harness: target unreachable, no check run: ${origin}/: timed out`);
    expect(performance.now() - started).toBeLessThan(10_000);
  });
});

describe('a flags-only run whose token endpoint answers 200 with 200 MB', () => {
  let server: RunningReferenceServer;
  beforeAll(async () => {
    server = await startReferenceServer();
  });
  afterAll(() => server.close());

  it('exits 1 with the shape checks FAILed, and writes valid reports', async () => {
    const hostile = await startHostile('huge');
    const reportDir = tmp();
    try {
      const { client_id, client_secret } = server.clients.primary!;
      const result = await harness(
        [
          'conformance',
          '--base-url',
          server.baseUrl,
          '--auth-url',
          hostile.authUrl,
          '--tenant',
          server.profile().tenant,
          '--report-dir',
          reportDir,
        ],
        { CLIENT_ID: client_id, CLIENT_SECRET: client_secret },
        60_000,
      );
      expect(result.status, result.stderr).toBe(1);
      expect(result.stdout).toMatch(/^FAIL +AUTH-TOKEN-SCHEMA .*over 65536 bytes/m);
      const report = JSON.parse(
        readFileSync(join(realpathSync(join(reportDir, 'latest')), 'conformance.json'), 'utf8'),
      );
      expect(conformanceErrors(report)).toEqual([]);
      expect(JSON.stringify(report)).not.toContain(client_secret);
    } finally {
      await hostile.close();
    }
  });
});
