// `harness conformance` against targets from which nothing can be verified: a tenant blocked for an hour, a 429 with
// a Retry-After too large for a number, a token endpoint and API that answer 500, 400, a sign-in page or resets. No
// such run may exit 0: it FAILs (1) where the evidence proves a rule broken, and otherwise ends with no verdict (5),
// well within its deadline (Retry-After waits are capped at a window), with valid reports and no secret in them.
import { readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningReferenceServer, startReferenceServer } from '../../src/reference/index.ts';
import { conformanceErrors } from '../../src/report/write.ts';
import type { Profile } from '../../src/spec/index.ts';
import { HUGE_RETRY_AFTER, type NoVerdictMode, startNoVerdictTarget } from '../support/no-verdict-target.ts';
import { harness, profileFor, SIDE_BY_SIDE, secretsOf, tmp } from './run.ts';

/** The default deadline against these timings (2 s minutes, 5 s tokens): a run that waits out Retry-After hits it. */
const DEFAULT_DEADLINE_MS = 110_000;

let server: RunningReferenceServer;
beforeAll(async () => {
  server = await startReferenceServer({ minuteMs: 2000, tokenLifetimeSeconds: 5 });
});
afterAll(() => server.close());

/**
 * Runs conformance with the API at a target in `mode`, and its token endpoint there too (`same`) or at the reference
 * server (`working`), which issues real tokens; `changes` override other fields of the server's profile.
 */
const against = async (
  mode: NoVerdictMode,
  tokens: 'working' | 'same',
  args: string[] = [],
  changes: Partial<Profile> = {},
) => {
  const target = await startNoVerdictTarget(mode);
  try {
    const { file, env } = profileFor(server, {
      base_url: target.origin,
      ...(tokens === 'same' ? { auth_url: target.authUrl } : {}),
      ...changes,
    });
    const reportDir = tmp();
    const run = await harness(
      ['conformance', '--profile', file, '--report-dir', reportDir, ...args],
      env,
      DEFAULT_DEADLINE_MS + 30_000,
    );
    const json = readFileSync(join(realpathSync(join(reportDir, 'latest')), 'conformance.json'), 'utf8');
    return { ...run, json, report: JSON.parse(json) };
  } finally {
    await target.close();
  }
};

type Run = Awaited<ReturnType<typeof against>>;

const expectWrittenWithoutSecrets = (run: Run) => {
  expect(conformanceErrors(run.report)).toEqual([]);
  for (const text of [run.json, run.stdout, run.stderr]) {
    for (const secret of secretsOf(server)) expect(text.includes(secret)).toBe(false);
  }
};

const expectNoVerdict = (run: Run) => {
  expect(run.status, run.stdout + run.stderr).toBe(5);
  expect(run.stderr).toMatch(/^harness: no verdict \(exit 5\): \d+ checks? INCONCLUSIVE or SKIPped/m);
  expect(run.report.unverified.length).toBeGreaterThan(0);
  expect(run.report.counts.FAIL).toBe(0);
};

// Every run has a target of its own and mostly waits (Retry-After, deadlines), so the runs go side by side, one per
// core (run.ts), each timed from its own start.
describe.concurrent('a tenant blocked for an hour: every API call 429 with Retry-After: 3600', () => {
  it('ends with no verdict (5) long before the deadline, showing the Retry-After it did not wait out', {
    timeout: DEFAULT_DEADLINE_MS + SIDE_BY_SIDE.timeout,
  }, async () => {
    // Nothing FAILs: a tenant refused everything shows no limit, and every check that calls the API can only give up.
    const run = await against('limited-3600', 'working');
    expectNoVerdict(run);
    expect(run.wallMs).toBeLessThan(DEFAULT_DEADLINE_MS / 2);
    const byId = new Map(run.report.checks.map((c: { id: string }) => [c.id, c]));
    expect(byId.get('AUTH-BEARER-MISSING')).toMatchObject({
      grade: 'INCONCLUSIVE',
      message: expect.stringContaining('429 3 times (Retry-After: 3600)'),
    });
    expect(run.report.unverified).toContain('AUTH-BEARER-MISSING');
    for (const id of ['LIMIT-ADMITS-RULES-SCHEDULE', 'LIMIT-TENANT-ISOLATED']) {
      expect(byId.get(id)).toMatchObject({
        grade: 'INCONCLUSIVE',
        message: expect.stringContaining('the tenant looks blocked'),
      });
    }
    expectWrittenWithoutSecrets(run);
  });
});

describe.concurrent('a Retry-After wait that would pass the run deadline', () => {
  it('is not begun: the check ends INCONCLUSIVE at once, exit 5', SIDE_BY_SIDE, async () => {
    // SPEC.md's minute: a 429 of the schedule bucket is waited on for up to 61 s, past a 20 s deadline.
    const args = ['--only', 'AUTH-BEARER-MISSING', '--deadline', '20s'];
    const run = await against('limited-3600', 'working', args, { minute_ms: undefined });
    expectNoVerdict(run);
    expect(run.wallMs).toBeLessThan(10_000);
    expect(run.stdout).toMatch(
      /^INCONCLUSIVE +AUTH-BEARER-MISSING .*429 \(Retry-After: 3600\), and waiting 61 s to retry would pass the run's deadline/m,
    );
  });
});

describe.concurrent('a 429 to every API call with a Retry-After of 22 digits', () => {
  it('WARNs showing the number sent (never Infinity or 3.6e+21), decides nothing else, and ends long before the deadline', {
    timeout: DEFAULT_DEADLINE_MS + SIDE_BY_SIDE.timeout,
  }, async () => {
    const run = await against('limited-huge', 'working');
    expectNoVerdict(run);
    expect(run.wallMs).toBeLessThan(DEFAULT_DEADLINE_MS / 2);
    expect(run.stdout).toMatch(
      new RegExp(
        `^WARN +LIMIT-RETRY-AFTER-RULES-SCHEDULE .*Retry-After is ${HUGE_RETRY_AFTER} s, longer`,
        'm',
      ),
    );
    for (const text of [run.json, run.stdout, run.stderr]) expect(text).not.toMatch(/Infinity|e\+\d/);
    expectWrittenWithoutSecrets(run);
  });
});

describe.concurrent('a token endpoint and API that answer nothing useful', () => {
  it.each(['limited-huge', 'status-500', 'status-400', 'html', 'reset'] as const)(
    '%s: FAILs the token checks (1); without them, every other check lacks a token: no verdict (5)',
    SIDE_BY_SIDE,
    async (mode) => {
      const full = await against(mode, 'same');
      expect(full.status, full.stdout + full.stderr).toBe(1);
      expect(full.stdout).toMatch(/^FAIL +AUTH-TOKEN-/m);
      const withoutTokenChecks = await against(mode, 'same', ['--skip', 'token']);
      expectNoVerdict(withoutTokenChecks);
      expect(withoutTokenChecks.stdout).toMatch(
        /^SKIP +AUTH-BEARER-MISSING .*no token: see AUTH-TOKEN-FORM/m,
      );
      for (const run of [full, withoutTokenChecks]) {
        expect(run.wallMs).toBeLessThan(20_000);
        expectWrittenWithoutSecrets(run);
      }
    },
  );

  it.each(['status-500', 'status-400'] as const)(
    'an API that answers %s with a working token endpoint: no verdict (5) once no check can FAIL on it; 0 with a baseline that records it',
    SIDE_BY_SIDE,
    async (mode) => {
      // AUTH-FORBIDDEN FAILs any answer but 403 to a client lacking permission; left out, nothing is proven.
      const run = await against(mode, 'working', ['--skip', 'AUTH-FORBIDDEN']);
      expectNoVerdict(run);
      // A team that knows its target answers so records it: the same grades, from that report, then pass.
      const baseline = join(tmp(), 'baseline.json');
      writeFileSync(baseline, run.json);
      const known = await against(mode, 'working', ['--skip', 'AUTH-FORBIDDEN', '--baseline', baseline]);
      expect(known.status, known.stdout + known.stderr).toBe(0);
      expect(run.stdout).toMatch(
        /^INCONCLUSIVE +ENDPOINT-GET-API-RULES-SCHEDULE .*answered [45]00 with a valid token/m,
      );
      expect(run.wallMs).toBeLessThan(30_000);
      expectWrittenWithoutSecrets(run);
    },
  );
});
