// --max-requests: a check gets its whole planned share before it starts or does not start; nothing beyond the budget
// is ever sent, and a run against the reference server is held to it, counted where the requests arrive.
import { readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startReferenceServer } from '../../src/reference/index.ts';
import { BudgetExhausted, RequestBudget } from '../../src/runner/budget.ts';
import { harness, profileFor, tmp } from '../cli/run.ts';
import { SCALED } from '../support/testbed.ts';

const item = (key: string, endpoint: string, requests: number, margin = 0) => ({
  key,
  endpoint,
  requests,
  margin,
});
const API = 'GET /api/rules/schedule';
const TOKEN = 'POST {auth_url}';

describe('the request budget', () => {
  it('runs a check only when its requests and margin fit, and takes its unsent share back afterwards', async () => {
    const budget = new RequestBudget(10, 1);
    await budget.within([item('a', API, 3, 2)], async () => {
      budget.spend(API);
      budget.spend(API);
    });
    expect(budget.sent).toBe(3);
    // 7 left: 8 do not fit, and the work never runs.
    let ran = false;
    await expect(
      budget.within([item('b', API, 8)], async () => {
        ran = true;
      }),
    ).rejects.toThrow('request budget of 10 exhausted');
    expect(ran).toBe(false);
    // A plan item already set aside (one probe, many checks) is not set aside twice.
    await budget.within([item('a', API, 3, 2), item('c', API, 7)], async () => {
      for (let i = 0; i < 7; i++) budget.spend(API);
    });
    expect(budget.sent).toBe(10);
    expect(() => budget.spend(API)).toThrow(BudgetExhausted);
    expect(budget.sent).toBe(10);
  });

  it('keeps one check from spending what another has set aside, and the run-wide token share for tokens', async () => {
    const budget = new RequestBudget(6);
    budget.setAsideForRun([item('tokens', TOKEN, 2)]);
    let release: () => void = () => {};
    const other = budget.within([item('other', API, 3)], () => new Promise<void>((done) => (release = done)));
    await budget.within([], async () => {
      budget.spend(TOKEN);
      budget.spend(TOKEN);
      // 2 for tokens and 3 set aside for the other check leave one.
      budget.spend(API);
      expect(() => budget.spend(API)).toThrow(BudgetExhausted);
    });
    release();
    await other;
    // The other check sent nothing: its three are free again.
    expect(budget.sent).toBe(3);
    budget.spend(API);
    expect(budget.sent).toBe(4);
  });
});

describe('harness conformance --max-requests', () => {
  it('sends no more than the budget, counted at the server, and SKIPs what does not fit with the reason', {
    timeout: 120_000,
  }, async () => {
    const server = await startReferenceServer(SCALED);
    const { file, env } = profileFor(server);
    const reportDir = tmp();
    const budget = 2900;
    try {
      const run = await harness(
        ['conformance', '--profile', file, '--report-dir', reportDir, '--max-requests', String(budget)],
        env,
      );
      expect(run.status, run.stderr).toBe(0);
      const served = server.requestsServed();
      expect(served).toBeLessThanOrEqual(budget);
      expect(run.stderr).toContain(`harness: --max-requests ${budget}: ${served} requests sent`);
      const report = JSON.parse(
        readFileSync(join(realpathSync(join(reportDir, 'latest')), 'conformance.json'), 'utf8'),
      ) as { checks: { id: string; grade: string; message: string }[] };
      const grades = new Map(report.checks.map((c) => [c.id, c]));
      // The per-second probe runs first and alone, so its share (plan and margin, about 2,820) is set aside first;
      // what it leaves unsent returns, and the other probes take turns at the rest.
      expect(grades.get('LIMIT-ADMITS-TRANSACTION-EVENT')?.grade).toBe('PASS');
      const skipped = report.checks.filter((c) => c.grade === 'SKIP');
      expect(skipped.length).toBeGreaterThan(0);
      for (const check of skipped) expect(check.message).toBe(`request budget of ${budget} exhausted`);
      expect(grades.get('AUTH-TOKEN-FORM')?.grade).toBe('PASS');
      // Whatever ran had all it planned: no probe stopped half way.
      expect(report.checks.filter((c) => c.grade === 'FAIL' || c.grade === 'INCONCLUSIVE')).toEqual([]);
      expect(report.checks.filter((c) => c.grade === 'PASS').length).toBeGreaterThan(10);
    } finally {
      await server.close();
    }
  });
});
