// `harness load` against reference servers on loopback: short k6 runs that must pass against the faithful server
// and fail against the faults they exist to catch.
import { readdirSync, readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { LoadSummary } from '../../load/lib/verdict.ts';
import { type ReferenceServerOptions, startReferenceServer } from '../../src/reference/index.ts';
import { harness, profileFor, secretsOf, tmp } from '../cli/run.ts';

/** A lower transaction limit keeps k6 and the server light on a shared 2-core machine; the rules are the same. */
const LIGHT: ReferenceServerOptions = {
  minuteMs: 2000,
  limits: { 'transaction-event': { count: 200, per: 'second' } },
};

const load = async (server: ReferenceServerOptions, args: string[]) => {
  const reference = await startReferenceServer({ ...LIGHT, ...server });
  try {
    const { file, env } = profileFor(reference);
    const dir = tmp();
    const result = await harness(['load', '--profile', file, '--report-dir', dir, ...args], env);
    const latest = realpathSync(join(dir, 'latest'));
    const summaryFile = readdirSync(latest).find((f) => /-summary\.json$/.test(f))!;
    const summary = JSON.parse(readFileSync(join(latest, summaryFile), 'utf8')) as LoadSummary;
    const artifacts = readdirSync(latest).map((f) => readFileSync(join(latest, f), 'utf8'));
    return { ...result, latest, summary, artifacts, secrets: secretsOf(reference) };
  } finally {
    await reference.close();
  }
};

const phase = (summary: LoadSummary, name: string) => {
  const found = summary.phases.find((p) => p.plan.name === name);
  if (!found) throw new Error(`no phase ${name}`);
  return found;
};

const TRANSACTIONS = ['--scenario', 'transactions', '--duration', '2s'];

describe('harness load', () => {
  it('passes within and over for the transaction limit against the faithful server, and writes both HTML reports', async () => {
    const run = await load({}, TRANSACTIONS);
    expect(run.status, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^summary: 3 of 3 phases passed$/m);
    expect(phase(run.summary, 'within_transactions').limited).toBe(0);
    const over = phase(run.summary, 'over_transactions');
    expect(over.admitted).toBeGreaterThanOrEqual(over.plan.expectedAdmitted * 0.99);
    expect(over.admitted).toBeLessThanOrEqual(over.plan.expectedAdmitted * 1.01);
    expect(over.retryAfterValid).toBe(1);
    expect(readdirSync(run.latest).sort()).toEqual([
      'load-transactions-summary.html',
      'load-transactions-summary.json',
      'load-transactions.html',
      'load-transactions.xml',
    ]);
    const junit = readFileSync(join(run.latest, 'load-transactions.xml'), 'utf8');
    expect(junit.match(/<testcase /g)).toHaveLength(3);
    expect(junit).toMatch(/<testsuites name="harness load" tests="3" failures="0" /);
    expect(readFileSync(join(run.latest, 'load-transactions-summary.html'), 'utf8')).toContain('<svg');
    // No client secret and no token the server issued in any report or in what was printed.
    expect(run.secrets.length).toBeGreaterThan(4);
    for (const text of [...run.artifacts, run.stdout, run.stderr]) {
      for (const secret of run.secrets) expect(text.includes(secret)).toBe(false);
    }
  });

  it.each([
    [
      'a wrong transaction limit',
      'wrong-limit-transaction',
      /admitted 180\.00\/s, SPEC\.md allows 200\.00\/s/,
    ],
    ['a missing Retry-After', 'retry-after-missing', /429s without an integer Retry-After/],
  ] as const)('over fails against %s, naming the phase', async (_name, fault, message) => {
    const run = await load({ fault }, TRANSACTIONS);
    expect(run.status).toBe(1);
    expect(run.stdout).toMatch(new RegExp(`^FAIL  over_transactions\\s+.*${message.source}`, 'm'));
    const junit = readFileSync(join(run.latest, 'load-transactions.xml'), 'utf8');
    expect(junit).toMatch(
      /<testcase classname="load.transactions" name="over_transactions" [^>]*>\s*<failure /,
    );
  });

  it('holds the Observability endpoints to one shared limit, and catches separate buckets', {
    timeout: 120_000,
  }, async () => {
    const args = ['--scenario', 'observability-shared', '--duration', '4s'];
    const faithful = await load({}, args);
    expect(faithful.status, faithful.stdout).toBe(0);
    const separate = await load({ fault: 'observability-separate-buckets' }, args);
    expect(separate.status).toBe(1);
    expect(separate.stdout).toMatch(/^FAIL {2}over_observability-shared\s+admitted/m);
  });

  it('two k6 instances together admit what one does', { timeout: 120_000 }, async () => {
    const one = await load({}, TRANSACTIONS);
    const two = await load({}, [...TRANSACTIONS, '--instances', '2']);
    expect(two.status, two.stdout).toBe(0);
    expect(two.summary.instances).toBe(2);
    const admitted = (s: LoadSummary) => phase(s, 'over_transactions').admitted;
    expect(
      Math.abs(admitted(two.summary) - admitted(one.summary)) / admitted(one.summary),
    ).toBeLessThanOrEqual(0.01);
    expect(two.stderr).toMatch(/\[k6 2\/2\] share/);
  });

  it('lists the scenarios with the limit each probes, and refuses an unknown one', async () => {
    const list = await harness(['load', '--list']);
    expect(list.stdout).toMatch(/^transactions\s+POST \/event\/transaction\/v3: 500 \/ second$/m);
    expect(list.stdout).toMatch(/^tenant-isolation\s+/m);
    const bad = await harness(['load', '--scenario', 'nope']);
    expect(bad.status).toBe(2);
    expect(bad.stderr.trim()).toMatch(
      /^harness: --scenario: unknown or unavailable scenario: nope \(available: transactions, /,
    );
  });
});
