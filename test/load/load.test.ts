// `harness load` against reference servers on loopback, each limiter kind in turn: short k6 runs that must never
// FAIL a faithful server and must FAIL the faults they exist to catch. Per-minute limits run on 2 s "minutes".
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type ReferenceServerOptions, startReferenceServer } from '../../src/reference/index.ts';
import { LIMITER_KINDS } from '../../src/reference/limiter-kinds.ts';
import { harness, secretsOf } from '../cli/run.ts';
import { runLoad } from './run-load.ts';

/** A lower transaction limit keeps k6 and the server light on a shared 2-core machine; the rules are the same. */
const LIGHT: ReferenceServerOptions = {
  minuteMs: 2000,
  limits: { 'transaction-event': { count: 200, per: 'second' } },
};

const against = async (server: ReferenceServerOptions, args: string[]) => {
  const reference = await startReferenceServer({ ...LIGHT, ...server });
  try {
    return { ...(await runLoad(reference.profile(), args)), secrets: secretsOf(reference) };
  } finally {
    await reference.close();
  }
};

const TRANSACTIONS = ['--scenario', 'transactions', '--duration', '4s'];
const NO_FAIL = /^summary: \d+ phases: (?!.*FAIL)/m;

/**
 * A faithful server is never FAILed: the run passes (0), or, where k6 was starved on this shared machine, gives no
 * verdict (5) naming harness's own shortfall for every phase it could not decide, never the server.
 */
const expectNoFail = (run: { status: number | null; stdout: string; stderr: string }) => {
  expect([0, 5], run.stdout + run.stderr).toContain(run.status);
  expect(run.stdout).toMatch(NO_FAIL);
  for (const line of run.stdout.split('\n').filter((l) => l.startsWith('INCONCLUSIVE'))) {
    expect(line).toMatch(/harness could not offer/);
  }
};

const FAITHFUL = ['--scenario', 'transactions,execute', '--duration', '4s'];
/** One k6 run per limiter kind against a faithful server, started by the first test that needs it. */
const faithfulRuns = new Map<string, ReturnType<typeof against>>();
const faithfulRun = (limiter: (typeof LIMITER_KINDS)[number]) => {
  if (!faithfulRuns.has(limiter)) faithfulRuns.set(limiter, against({ limiter }, FAITHFUL));
  return faithfulRuns.get(limiter)!;
};

describe('harness load', () => {
  it('grades every phase of a faithful anchored limiter, writes both HTML reports, and leaks no secret', {
    timeout: 120_000,
  }, async () => {
    const run = await faithfulRun('anchored');
    expectNoFail(run);
    expect(Object.keys(run.grades).sort()).toEqual(
      ['execute', 'transactions'].flatMap((p) => ['within', 'over', 'knee'].map((ph) => `${ph}_${p}`)).sort(),
    );
    expect(run.summary.phases.filter((p) => p.plan.phase === 'within').map((p) => p.limited)).toEqual([0, 0]);
    expect(run.names.sort()).toEqual([
      'load-transactions+execute-summary.html',
      'load-transactions+execute-summary.json',
      'load-transactions+execute.html',
      'load-transactions+execute.xml',
      'runners/runner-1.json',
    ]);
    const junit = readFileSync(join(run.latest, 'load-transactions+execute.xml'), 'utf8');
    expect(junit.match(/<testcase /g)).toHaveLength(6);
    expect(junit).toMatch(/<testsuites name="harness load" tests="6" failures="0" /);
    expect(readFileSync(join(run.latest, 'load-transactions+execute-summary.html'), 'utf8')).toMatch(
      /class="PASS">PASS<[\s\S]*<svg/,
    );
    // No client secret and no token the server issued (the pre-flight's included) in any report or output.
    expect(run.secrets.length).toBeGreaterThan(4);
    for (const text of [...run.artifacts, run.stdout, run.stderr]) {
      for (const secret of run.secrets) expect(text.includes(secret)).toBe(false);
    }
  });

  it.each([
    ['a transaction limit 10 % low', 'wrong-limit-transaction', /limited below 200 \/ second: a 429/],
    ['a missing Retry-After', 'retry-after-missing', /429s without an integer Retry-After/],
  ] as const)(
    'FAILs %s, naming the phase, and exits 1',
    { timeout: 120_000 },
    async (_name, fault, message) => {
      const run = await against({ fault }, TRANSACTIONS);
      expect(run.status).toBe(1);
      expect(run.stdout).toMatch(new RegExp(`^FAIL\\s+(over|knee)_transactions\\s+.*${message.source}`, 'm'));
      expect(run.stdout).toMatch(/^summary: 3 phases: .*FAIL.*; failed: /m);
      const junit = readFileSync(join(run.latest, 'load-transactions.xml'), 'utf8');
      expect(junit).toMatch(
        /<testcase classname="load.transactions" name="(over|knee)_transactions" [^>]*>\s*<failure /,
      );
    },
  );

  it('WARNs a Retry-After longer than the window, as conformance does: SPEC.md asks only for integer seconds', {
    timeout: 120_000,
  }, async () => {
    const run = await against({ fault: 'retry-after-too-long' }, TRANSACTIONS);
    expectNoFail(run);
    expect(run.stdout).toMatch(
      /^WARN\s+over_transactions\s+Retry-After is 3600 s, longer than the 1 s window/m,
    );
  });

  it('holds the Observability endpoints to one shared limit, and catches separate buckets', {
    timeout: 120_000,
  }, async () => {
    const args = ['--scenario', 'observability-shared', '--duration', '4s'];
    const faithful = await against({}, args);
    expectNoFail(faithful);
    const separate = await against({ fault: 'observability-separate-buckets' }, args);
    expect(separate.status).toBe(1);
    expect(separate.stdout).toMatch(/^FAIL\s+over_observability-shared\s+more admitted than 100 \/ minute/m);
  });

  it.each(LIMITER_KINDS)(
    'never FAILs a faithful %s limiter, per second or per minute',
    {
      timeout: 120_000,
    },
    async (limiter) => {
      // The anchored run is the one the first test graded: the same run, asserted twice, not run twice.
      expectNoFail(await faithfulRun(limiter));
    },
  );

  it('two k6 instances give the verdicts one does', { timeout: 120_000 }, async () => {
    const two = await against({ limiter: 'aligned' }, [...TRANSACTIONS, '--instances', '2']);
    expectNoFail(two);
    expect(two.summary.instances).toBe(2);
    expect(two.stdout).toMatch(NO_FAIL);
    // Each instance wrote its share, saying which runner it is; only harness, which merged them, printed verdicts.
    expect(two.names).toEqual(expect.arrayContaining(['runners/runner-1.json', 'runners/runner-2.json']));
    expect(two.summary.runners?.map((r) => r.segment)).toEqual(['0:1/2', '1/2:1']);
    expect(two.stderr).not.toMatch(/^\[k6 \d\/2\] (share|PASS)/m);
  });

  it('lists the scenarios with the limit each probes, and refuses an unknown one', async () => {
    const list = await harness(['load', '--list']);
    expect(list.stdout).toMatch(/^transactions\s+POST \/event\/transaction\/v3: 500 \/ second$/m);
    expect(list.stdout).toMatch(/^tenant-isolation\s+other_tenant on POST \/event\/transaction\/v3/m);
    const bad = await harness(['load', '--scenario', 'nope']);
    expect(bad.status).toBe(2);
    expect(bad.stderr.trim()).toMatch(
      /^harness: --scenario: unknown or unavailable scenario: nope \(available: transactions, /,
    );
  });
});
