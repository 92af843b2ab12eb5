// Against a server that keeps every rule, every check passes: zero FAIL, WARN, SKIP or INCONCLUSIVE, run after run.
import { describe, expect, it } from 'vitest';
import { deviations, runAgainst } from './run.ts';

describe('conformance suite against the faithful reference server', () => {
  it('passes every check in two runs back to back (the second finds every bucket spent and waits)', async () => {
    const reports = await runAgainst({}, 2);
    for (const report of reports) {
      expect(deviations(report)).toEqual({});
      expect(report.counts.PASS).toBeGreaterThan(60);
      expect(report.checks.find((c) => c.id === 'LIMITER-ALGORITHM')?.message).toMatch(/^fixed window/);
    }
  });

  it('keeps to its plan: no endpoint gets more requests than planned plus the retry margin', async () => {
    const [report] = await runAgainst();
    const allowed = new Map<string, number>();
    for (const item of report!.plan) {
      allowed.set(item.endpoint, (allowed.get(item.endpoint) ?? 0) + item.requests + item.margin);
    }
    for (const [endpoint, sent] of Object.entries(report!.sent)) {
      expect(sent, endpoint).toBeLessThanOrEqual(allowed.get(endpoint) ?? 0);
    }
  });
});
