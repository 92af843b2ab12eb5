// `harness load` against reference servers on loopback: short k6 runs that must never FAIL a faithful server and must
// FAIL the faults they exist to catch. Per-minute limits run on 2 s "minutes"; limiters.test.ts takes the other kinds.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { harness } from '../cli/run.ts';
import { against, expectNoFail, FAITHFUL, TRANSACTIONS } from './run-load.ts';

describe('harness load', () => {
  it('grades every phase of a faithful anchored limiter, writes both HTML reports, and leaks no secret', {
    timeout: 120_000,
  }, async () => {
    const run = await against({ limiter: 'anchored' }, FAITHFUL);
    expectNoFail(run);
    expect(Object.keys(run.grades).sort()).toEqual(
      ['execute', 'transactions'].flatMap((p) => ['within', 'over', 'knee'].map((ph) => `${ph}_${p}`)).sort(),
    );
    expect(run.summary.phases.filter((p) => p.plan.phase === 'within').map((p) => p.limited)).toEqual([0, 0]);
    expect(run.names.sort()).toEqual([
      'index.html',
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
