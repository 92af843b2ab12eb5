// `harness conformance` as a CI pipeline runs it: exit codes, reports on disk, and no secret in any artifact.
import { readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningReferenceServer, startReferenceServer } from '../../src/reference/index.ts';
import { listenOnLoopback } from '../support/listen.ts';
import { SCALED } from '../support/testbed.ts';
import { harness, profileFor, SIDE_BY_SIDE, secretsOf, tmp } from './run.ts';

const conformance = async (server: RunningReferenceServer, args: string[]) => {
  const { file, env } = profileFor(server);
  const reportDir = tmp();
  const result = await harness(['conformance', '--profile', file, '--report-dir', reportDir, ...args], env);
  return { ...result, reportDir };
};

describe('harness conformance against the faithful reference server', () => {
  let server: RunningReferenceServer;
  let run: Awaited<ReturnType<typeof conformance>>;
  beforeAll(async () => {
    server = await startReferenceServer(SCALED);
    run = await conformance(server, []);
  }, 120_000);
  afterAll(() => server.close());

  it('exits 0 and prints the failures first and the summary last', () => {
    expect(run.status, run.stderr).toBe(0);
    const lines = run.stdout.trim().split('\n');
    expect(lines.at(-1)).toMatch(
      /^summary: \d+ checks in [\d.]+ s: 0 FAIL, 0 INCONCLUSIVE, 0 WARN, 0 SKIP, 7 INFO, \d+ PASS$/,
    );
    expect(lines.at(-2)).toMatch(
      /^certifiable: no: profile overrides the SPEC.md §8 limit of transaction-event/,
    );
    expect(run.stderr).toContain('PASS         AUTH-TOKEN-FORM');
  });

  it('writes the four reports and an index page, and points latest at them', () => {
    const latest = realpathSync(join(run.reportDir, 'latest'));
    expect(readdirSync(latest).sort()).toEqual([
      'conformance.html',
      'conformance.json',
      'conformance.md',
      'conformance.xml',
      'index.html',
    ]);
    const report = JSON.parse(readFileSync(join(latest, 'conformance.json'), 'utf8'));
    expect(report.counts.FAIL).toBe(0);
    expect(report.checks.every((c: { repro: string[]; clause: string }) => c.clause.startsWith('§'))).toBe(
      true,
    );
  });

  it('leaks no client secret and no access token into any artifact or output', () => {
    expect(server.issuedTokens().length).toBeGreaterThan(3);
    const latest = realpathSync(join(run.reportDir, 'latest'));
    const artifacts = [
      run.stdout,
      run.stderr,
      ...readdirSync(latest).map((f) => readFileSync(join(latest, f), 'utf8')),
    ];
    for (const text of artifacts) {
      for (const secret of secretsOf(server)) expect(text.includes(secret)).toBe(false);
    }
    // Reproductions name each secret by the variable the profile takes it from (profileFile: ${SECRET_PRIMARY}).
    expect(artifacts.join('\n')).toContain('$SECRET_PRIMARY');
    expect(artifacts.join('\n')).not.toContain('$CLIENT_SECRET');
  });

  it('with --baseline, a deviation that went away fails the run', async () => {
    const baseline = join(tmp(), 'baseline.json');
    writeFileSync(baseline, JSON.stringify({ 'AUTH-TOKEN-NO-STORE': 'WARN' }));
    const result = await conformance(server, ['--only', 'token', '--baseline', baseline]);
    expect(result.status).toBe(1);
    expect(result.stdout).toContain('AUTH-TOKEN-NO-STORE: expected WARN, got PASS');
  });
});

// Each run below has a server of its own (or none): they go side by side, as many at once as run.ts allows.
describe.concurrent('harness conformance against broken targets', SIDE_BY_SIDE, () => {
  it.each([
    ['missing-token-accepted', [], 1, /^FAIL\s+AUTH-BEARER-MISSING/m],
    ['no-cache-control', [], 0, /^WARN\s+AUTH-TOKEN-NO-STORE/m],
    ['no-cache-control', ['--strict'], 1, /^WARN\s+AUTH-TOKEN-NO-STORE/m],
  ] as const)('%s %j exits %i', async (fault, flags, status, line) => {
    const server = await startReferenceServer({ ...SCALED, fault });
    try {
      const result = await conformance(server, ['--only', 'token,bearer', ...flags]);
      expect(result.status, result.stderr).toBe(status);
      expect(result.stdout).toMatch(line);
    } finally {
      await server.close();
    }
  });

  it('a baseline that records the deviation lets a known-deviant target pass', async () => {
    const server = await startReferenceServer({ ...SCALED, fault: 'no-cache-control' });
    const baseline = join(tmp(), 'baseline.json');
    writeFileSync(baseline, JSON.stringify({ 'AUTH-TOKEN-NO-STORE': 'WARN' }));
    try {
      expect(
        (await conformance(server, ['--only', 'token', '--strict', '--baseline', baseline])).status,
      ).toBe(0);
    } finally {
      await server.close();
    }
  });

  it('with --require-certifiable, a run that cannot certify exits 1 and says why', async () => {
    const server = await startReferenceServer(SCALED);
    try {
      const run = await conformance(server, ['--only', 'token', '--require-certifiable']);
      expect(run.status).toBe(1);
      expect(run.stderr).toMatch(
        /^harness: --require-certifiable: this run cannot certify the target: .*profile shortens per-minute windows to 2000 ms; .*; \d+ checks SPEC.md requires were left out by --only\/--skip/m,
      );
    } finally {
      await server.close();
    }
  });

  it('exits 3 when nothing listens, before any check', async () => {
    const server = await startReferenceServer(SCALED);
    const { file, env } = profileFor(server);
    await server.close();
    const result = await harness(['conformance', '--profile', file, '--report-dir', tmp()], env);
    expect(result.status).toBe(3);
    expect(result.stderr).toMatch(/^harness: target unreachable, no check run: http:\/\/127\.0\.0\.1:\d+/);
  });

  it('--dry-run prints the plan and sends nothing', async () => {
    let requests = 0;
    const counter = createServer((_req, res) => {
      requests += 1;
      res.end();
    });
    const { origin: url } = await listenOnLoopback(counter);
    const result = await harness(
      ['conformance', '--base-url', url, '--auth-url', `${url}/token`, '--tenant', 'acme', '--dry-run'],
      {
        CLIENT_ID: 'app',
        CLIENT_SECRET: 'never-sent',
      },
    );
    counter.close();
    expect(result.status, result.stderr).toBe(0);
    // The limit plus one (spend and window end) and plus ten (fresh: two, and a quarter of the limit, at most eight).
    expect(result.stdout).toMatch(/POST \/event\/transaction\/v3\s+1512\s+\(\+\d+\)/);
    expect(result.stdout).toMatch(
      /^total: \d+ requests, at most \d+ with the retry margin; nothing was sent$/m,
    );
    expect(result.stdout).toMatch(
      /^ {2}transaction-event +500\/second +1512 \(\+\d+\) +limited for up to 1 s after the run$/m,
    );
    expect(result.stdout).toMatch(/^ {2}rules-rerun +1\/minute .* limited for up to 60 s after the run$/m);
    expect(requests).toBe(0);
  });
});

describe.concurrent('harness conformance, bad input', SIDE_BY_SIDE, () => {
  it.each([
    [['--only', 'NO-SUCH-CHECK'], '--only: unknown check ID or tag: NO-SUCH-CHECK'],
    [['--base-url', 'http://127.0.0.1:9'], '--base-url without --profile needs CLIENT_ID and CLIENT_SECRET'],
    [['--format', 'pdf'], "option '--format <list>' argument 'pdf' is invalid"],
    [['--profile', '/nonexistent.yaml'], '--profile /nonexistent.yaml: cannot read: ENOENT'],
    [['--max-requests', '1'], '--max-requests 1: the reachability check alone sends 1, one per origin'],
    // A seed past what a report records would make the run's own report unreadable to compare and trend.
    [['--seed', '2147483648'], "option '--seed <n>' argument '2147483648' is invalid"],
  ])('%j: one line, exit 2', async (args, message) => {
    const result = await harness(['conformance', ...args], { CLIENT_ID: '', CLIENT_SECRET: '' });
    expect(result.status).toBe(2);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toContain(message);
  });

  it('a target off loopback without side_effects: exit 2 naming the field, before anything is sent', async () => {
    const url = 'https://staging.example.test';
    const result = await harness(
      ['conformance', '--base-url', url, '--auth-url', `${url}/oauth2/token`, '--tenant', 'acme'],
      { CLIENT_ID: 'app', CLIENT_SECRET: 'never-sent' },
    );
    expect(result.status).toBe(2);
    expect(result.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(
        /^harness: .*\/side_effects: required when base_url is not on loopback .*POST \/api\/rules\/execute\); on the command line, --side-effects$/,
      ),
    ]);
  });
});
