// Against a server that keeps every rule, every check passes: zero FAIL, WARN, SKIP or INCONCLUSIVE, run after run.
import { describe, expect, it } from 'vitest';
import { ENDPOINTS } from '../../src/spec/index.ts';
import { deviations, runAgainst } from '../../src/testbed/conformance.ts';

describe('conformance suite against the faithful reference server', () => {
  it('passes every check in two runs back to back (the second finds every bucket spent and waits)', {
    timeout: 120_000,
  }, async () => {
    const reports = await runAgainst({}, { runs: 2 });
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

  it('with side_effects: deny, calls no endpoint that acts and says why each of its checks is skipped', async () => {
    const [report] = await runAgainst({}, { adjust: (profile) => ({ ...profile, side_effects: 'deny' }) });
    const acting = ENDPOINTS.filter((e) => e.sideEffects).map((e) => e.key);
    expect(acting).toHaveLength(4);
    for (const key of acting) expect(report!.sent[key], key).toBeUndefined();
    const skipped = report!.checks.filter((c) => c.grade === 'SKIP');
    expect(skipped.length).toBeGreaterThan(10);
    for (const check of skipped) expect(check.message).toMatch(/side_effects/);
    // Batch ids come from an acting endpoint, so the batch checks are skipped too, and nothing fails.
    expect(report!.checks.filter((c) => c.grade === 'FAIL' || c.grade === 'INCONCLUSIVE')).toEqual([]);
    expect(report!.certifiable).toBe(false);
  });
});
