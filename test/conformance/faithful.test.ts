// Against a server that keeps every rule, every check passes: zero FAIL, WARN, SKIP or INCONCLUSIVE, run after run,
// under every limiter kind and network. On virtual time (test/support/simulation/); faults-real-time.test.ts runs
// the faithful server on real time too, with the same grades.
import { describe, expect, it } from 'vitest';
import { LIMITER_KINDS } from '../../src/reference/index.ts';
import { NETWORK_CONDITIONS } from '../../src/reference/toxiproxy.ts';
import type { RunReport } from '../../src/runner/types.ts';
import { ENDPOINTS } from '../../src/spec/index.ts';
import { runSimulated, simulateRuns } from '../support/simulation/run.ts';
import { deviations } from '../support/testbed.ts';

const SEED = 7;

/** Two runs back to back against one faithful server, graded by the first test and held to their plan by the next. */
let backToBack: Promise<RunReport[]> | undefined;
const twoRuns = () => {
  backToBack ??= simulateRuns({}, { seed: SEED }, 2);
  return backToBack;
};

describe('conformance suite against the faithful reference server, every limiter kind and network', () => {
  it.each(LIMITER_KINDS.flatMap((kind) => NETWORK_CONDITIONS.map((network) => [kind, network] as const)))(
    '%s at %s: nothing deviates',
    async (limiter, network) => {
      const report = await runSimulated({ limiter }, { seed: SEED, network });
      const messages = report.checks.filter((c) => c.grade !== 'PASS').map((c) => `${c.id}: ${c.message}`);
      expect(deviations(report), messages.join('\n')).toEqual({});
    },
  );
});

describe('conformance suite against the faithful reference server', () => {
  it('passes every check in two runs back to back (the second finds every bucket spent and waits)', async () => {
    const reports = await twoRuns();
    for (const report of reports) {
      const messages = report.checks.filter((c) => c.grade !== 'PASS').map((c) => `${c.id}: ${c.message}`);
      expect(deviations(report), messages.join('\n')).toEqual({});
      expect(report.counts.PASS).toBeGreaterThan(60);
      expect(report.checks.find((c) => c.id === 'LIMITER-ALGORITHM')?.message).toMatch(/^fixed window/);
      // SPEC.md asks for no RateLimit fields, and the faithful server sends none: INFO saying so, nothing else.
      const rateLimit = report.checks.filter((c) => c.tags.includes('ratelimit'));
      expect(rateLimit.map((c) => c.grade)).toEqual(['INFO', 'INFO', 'INFO', 'INFO', 'INFO']);
      expect(rateLimit[0]!.message).toMatch(/^none of the \d+ successes and 429s .*SPEC\.md asks for none/);
    }
  });

  it("reproduces a limit check by the probe's first request, an endpoint check by its own first answer", async () => {
    const [report] = await twoRuns();
    const reproOf = (id: string) => report!.checks.find((c) => c.id === id)!.repro;
    // In-process there is no command line to replay; the probe's first request is the part shown by hand.
    expect(reproOf('LIMIT-ENFORCED-TRANSACTION-EVENT')[0]).toBe('# one request of the burst, by hand:');
    expect(reproOf('LIMIT-ENFORCED-TRANSACTION-EVENT').join('\n')).toMatch(/curl .*\/event\/transaction\/v3/);
    const endpoint = reproOf('ENDPOINT-POST-EVENT-TRANSACTION-V3');
    expect(endpoint.join('\n')).not.toContain('# one request of the burst');
    expect(endpoint.join('\n')).toMatch(/curl .*\/event\/transaction\/v3/);
  });

  it('keeps to its plan: no endpoint gets more requests than planned plus the retry margin', async () => {
    for (const report of await twoRuns()) {
      const allowed = new Map<string, number>();
      for (const item of report.plan) {
        allowed.set(item.endpoint, (allowed.get(item.endpoint) ?? 0) + item.requests + item.margin);
      }
      for (const [endpoint, sent] of Object.entries(report.sent)) {
        expect(sent, endpoint).toBeLessThanOrEqual(allowed.get(endpoint) ?? 0);
      }
    }
  });

  it('waits out the token lifetime beside the probes, not after them, and neither disturbs the other', async () => {
    // Gateway mode: the expired token's request counts toward the tenant's limit, and a spent limit answers 429 first.
    const report = await runSimulated({ limitBeforeAuth: true }, { seed: SEED });
    expect(deviations(report)).toEqual({});
    const startOf = (id: string) => Date.parse(report.checks.find((c) => c.id === id)!.startedAt);
    const expiry = report.checks.find((c) => c.id === 'AUTH-TOKEN-EXPIRY')!;
    expect(expiry.grade).toBe('PASS');
    const runStart = Date.parse(report.startedAt);
    expect(startOf('AUTH-TOKEN-EXPIRY') - runStart).toBeLessThan(1000);
    const probesDone = Math.max(
      ...report.checks.filter((c) => c.id.startsWith('LIMIT-')).map((c) => startOf(c.id)),
    );
    // The 5 s token lifetime is not added after the probes (it was: 18.4 s runs, the last 6 s the expiry check alone).
    expect(runStart + report.durationMs - probesDone).toBeLessThan(5000);
  });

  it('AUTH-FORBIDDEN sends only to what it planned: no endpoint whose ids harness cannot obtain', async () => {
    // Batch ids come from an acting endpoint side_effects does not list, so the batch status endpoint is unreachable.
    const report = await runSimulated(
      {},
      {
        seed: SEED,
        only: ['AUTH-FORBIDDEN'],
        adjust: (profile) => ({
          ...profile,
          side_effects: ['POST /api/rules/rerun'],
          clients: {
            ...profile.clients,
            restricted: {
              ...profile.clients.restricted!,
              lacks: ['POST /api/rules/rerun', 'GET /api/transactions/batch/status/{batch_id}'],
            },
          },
        }),
      },
    );
    const forbidden = report.checks.find((c) => c.id === 'AUTH-FORBIDDEN')!;
    expect(forbidden.grade, forbidden.message).toBe('PASS');
    expect(forbidden.message).toBe('POST /api/rules/rerun: 403');
    const planned = new Set(report.plan.map((item) => item.endpoint));
    for (const endpoint of Object.keys(report.sent)) expect(planned, endpoint).toContain(endpoint);
  });

  it('with side_effects: deny, calls no endpoint that acts and says why each of its checks is skipped', async () => {
    const report = await runSimulated(
      {},
      { seed: SEED, adjust: (profile) => ({ ...profile, side_effects: 'deny' }) },
    );
    const acting = ENDPOINTS.filter((e) => e.sideEffects).map((e) => e.key);
    expect(acting).toHaveLength(4);
    for (const key of acting) expect(report.sent[key], key).toBeUndefined();
    const skipped = report.checks.filter((c) => c.grade === 'SKIP');
    expect(skipped.length).toBeGreaterThan(10);
    for (const check of skipped) expect(check.message).toMatch(/side_effects/);
    // Batch ids come from an acting endpoint, so the batch checks are skipped too, and nothing fails.
    expect(report.checks.filter((c) => c.grade === 'FAIL' || c.grade === 'INCONCLUSIVE')).toEqual([]);
    expect(report.certifiable).toBe(false);
  });
});
