// The pure parts of the load probes around the verdicts: the plan built from the spec data, the k6 schedule it
// becomes, the pre-flight it needs, and how several instances' records merge.
import { describe, expect, it } from 'vitest';
import { mergeSummaries, type PhaseResult } from '../../core/evidence.ts';
import type { PhasePlan } from '../../core/plan.ts';
import { atPointer } from '../../core/pointer.ts';
import { arrivalOf, scheduledMs, vusFor } from '../../core/schedule.ts';
import { InputError } from '../../src/errors.ts';
import { k6PlanFor, planProbes } from '../../src/k6-driver/plan.ts';
import { planPreflight } from '../../src/k6-driver/preflight-plan.ts';
import { availableProbes } from '../../src/k6-driver/probes.ts';
import { resolveTarget } from '../../src/profile/target.ts';
import type { Profile } from '../../src/spec/index.ts';
import { PLAN_ONLY_TARGET } from './target.ts';

const target: Profile = {
  ...PLAN_ONLY_TARGET,
  observability: ['GET /api/observability/a', 'GET /api/observability/b'],
  ids: { batch_id: { from: 'POST /api/transactions/batch/generate-upload-url', pointer: '/batch_id' } },
};

const allPhases = (profile: Profile = target) =>
  planProbes(resolveTarget(profile), { scenarios: ['all'] }).probes.flatMap((p) => p.phases);
const phaseOf = (name: string, profile: Profile = target): PhasePlan => {
  const found = allPhases(profile).find((p) => p.name === name);
  if (!found) throw new Error(name);
  return found;
};

describe('load plan', () => {
  it('derives one probe per bucket from the spec data, offering 90 % and twice the limit', () => {
    const over = phaseOf('over_transactions');
    expect(over.limit).toEqual({ count: 500, per: 'second', windowMs: 1000 });
    expect(over.offeredPerWindow).toBe(1000);
    expect(phaseOf('within_transactions').offeredPerWindow).toBe(450);
    expect(phaseOf('over_observability-shared').endpoints).toEqual(target.observability);
    // Separate shares spent round-robin look like one limit: the knee goes through one endpoint, which must get all of it too.
    expect(phaseOf('knee_observability-shared_one-endpoint').endpoints).toEqual(
      target.observability?.slice(0, 1),
    );
    // A limit of one per window: within at 0.9 per window, over at no fewer than four.
    expect(phaseOf('within_rerun').offeredPerWindow).toBe(0.9);
    expect(phaseOf('over_rerun').offeredPerWindow).toBe(4);
    const knee = phaseOf('knee_schedule');
    expect([knee.fromPerWindow, knee.offeredPerWindow, knee.rampMs, knee.durationMs]).toEqual([
      60, 240, 120_000, 180_000,
    ]);
  });

  it('leaves out probes of acting endpoints when side_effects is deny, and the tenant probes move to schedule', () => {
    const names = availableProbes(resolveTarget({ ...target, side_effects: 'deny' })).map((p) => p.name);
    expect(names).not.toContain('transactions');
    expect(names).not.toContain('rerun');
    expect(phaseOf('over_tenant-sharing', { ...target, side_effects: 'deny' }).bucket).toBe('rules-schedule');
  });

  it('packs the phases of one limiter on one slot grid, and runs the tenant probes on the per-second bucket', () => {
    const phases = allPhases().filter((p) => p.bucket === 'transaction-event');
    expect(phases.map((p) => p.name)).toEqual([
      'within_transactions',
      'over_transactions',
      'knee_transactions',
      'over_tenant-sharing',
      'over_tenant-isolation',
      'within_tenant-isolation_beside',
    ]);
    for (const p of phases) expect(p.startMs % p.slotMs).toBe(0);
    const primary = phases.filter((p) => p.limiterKey === 'transaction-event/acme');
    for (let i = 1; i < primary.length; i++) {
      const gap = primary[i]!.startMs - (primary[i - 1]!.startMs + primary[i - 1]!.durationMs);
      expect(gap).toBe(500);
    }
    const beside = phaseOf('within_tenant-isolation_beside');
    expect(beside.limiterKey).toBe('transaction-event/globex');
    expect(beside.startMs).toBe(phaseOf('over_tenant-isolation').startMs);
  });

  it('fits `--scenario all` against real timings in under seven minutes of schedule', () => {
    const { totalMs } = planProbes(resolveTarget(target), { scenarios: ['all'] });
    expect(totalMs).toBe(404_400);
    const chain = allPhases().filter((p) => p.bucket === 'rules-schedule');
    expect(chain.at(-1)!.startMs + chain.at(-1)!.durationMs).toBe(totalMs);
  });

  it('refuses an unknown scenario as bad input, naming --scenario', () => {
    const plan = () => planProbes(resolveTarget(target), { scenarios: ['nope'] });
    expect(plan).toThrow(InputError);
    expect(plan).toThrow(/^--scenario: unknown or unavailable scenario: nope \(available: transactions, /);
  });

  it('plans the pre-flight: a token per role, the path ids, and what they spend of each limit', () => {
    const phases = planProbes(resolveTarget(target), {
      scenarios: ['batch-status', 'tenant-sharing'],
    }).probes.flatMap((p) => p.phases);
    const preflight = planPreflight(resolveTarget(target), phases);
    // Three timed round trips besides the first, which also opens the connection.
    expect(preflight.tokenRequests).toEqual(['primary', 'same_tenant', 'primary']);
    expect(preflight.idSources).toEqual([
      { name: 'batch_id', from: 'POST /api/transactions/batch/generate-upload-url', pointer: '/batch_id' },
    ]);
    expect(preflight.timedCall).toBeUndefined();
    expect(preflight.requestsPerLimiter).toEqual({ 'batch-upload-url/acme': 1 });
    const transactions = planPreflight(resolveTarget(target), [phaseOf('over_transactions')]);
    expect(transactions.timedCall).toBe('POST /event/transaction/v3');
    expect(transactions.requestsPerLimiter).toEqual({ 'transaction-event/acme': 1 });
  });
});

describe('the plan k6 gets', () => {
  it("names each role's token request with its tenant's scope, and carries no secret", () => {
    const plan = k6PlanFor(resolveTarget(target), { scenarios: ['tenant-isolation'] });
    expect(plan.clients).toEqual({
      primary: { client_id: 'a', scope: 'tenant/acme' },
      other_tenant: { client_id: 'c', scope: 'tenant/globex' },
    });
    expect(plan.preflight.tokenRequests).toEqual(['primary', 'other_tenant', 'primary']);
    expect(JSON.stringify(plan)).not.toContain('"s"');
  });
});

describe('k6 schedule', () => {
  it('starts iterations where k6 does: evenly for a constant rate, by the area under a ramp, then evenly', () => {
    const over = phaseOf('over_transactions');
    expect(arrivalOf(over)).toEqual({ timeUnitMs: 1000, startRate: 1000, rate: 1000 });
    expect(scheduledMs(over, 250)).toBe(250);
    const knee = phaseOf('knee_transactions');
    const rampArea = (knee.rampMs * (250 + 1000)) / 2 / 1000;
    expect(scheduledMs(knee, 0)).toBeCloseTo(1000 / 250, 1);
    expect(scheduledMs(knee, rampArea - 1)).toBeCloseTo(knee.rampMs, 3);
    expect(scheduledMs(knee, rampArea + 999)).toBeCloseTo(knee.rampMs + 1000, 3);
    // A fraction of one per window: one iteration per ten windows, nine of them.
    expect(arrivalOf(phaseOf('within_rerun'))).toEqual({ timeUnitMs: 600_000, startRate: 9, rate: 9 });
  });

  it("sizes VUs by Little's law from the round trip, never below two per instance", () => {
    const over = phaseOf('over_transactions');
    // 1000/s for at least 250 ms, a quarter more: 315 VUs; at a 200 ms round trip, 350 ms: 440.
    expect(vusFor(over, 1, 1).preAllocatedVUs).toBe(315);
    expect(vusFor(over, 200, 1)).toEqual({ preAllocatedVUs: 440, maxVUs: 880 });
    expect(vusFor(phaseOf('within_rerun'), 1, 3).preAllocatedVUs).toBe(6);
  });
});

describe('merging instances', () => {
  it('adds counts slot by slot, keeps the longest admitted and shortest refused round trip, weighs Retry-After', () => {
    const over = phaseOf('over_transactions');
    const part = (admitted: number[], limited: number[], rtt: number, valid: number): PhaseResult => ({
      plan: over,
      offered: 0,
      admitted: admitted.reduce((a, b) => a + b, 0),
      limited: limited.reduce((a, b) => a + b, 0),
      refused: 0,
      networkErrors: 0,
      renewed: 0,
      tokenFailures: undefined,
      noToken: 0,
      dropped: 0,
      unslotted: 0,
      retryAfterValid: valid,
      retryAfterMax: 1,
      roundTrips: { minMs: rtt, p99Ms: rtt, maxMs: rtt },
      startLagMs: { p99: rtt, max: rtt },
      slots: {
        admitted,
        limited,
        admittedMaxRttMs: admitted.map((a) => (a > 0 ? rtt : 0)),
        limitedMinRttMs: limited.map((l) => (l > 0 ? rtt : 0)),
      },
    });
    const summary = (p: PhaseResult, late: number, segment: string, startAt = 1000) => ({
      source: segment,
      summary: {
        target: 't',
        generatedAt: '',
        instances: 2,
        lateMs: [late],
        preflightRequests: { 'transaction-event/acme': 1 },
        phases: [p],
        runner: {
          runId: 'r',
          planDigest: 'd',
          segment,
          sequence: '0,1/2,1',
          startAt,
          setupCompleted: true,
          harnessVersion: 'h',
          k6Version: 'k',
        },
      },
    });
    // One runner saw the draft's fields, the other X-RateLimit-* too, declaring another window.
    const merged = mergeSummaries([
      summary(
        { ...part([3, 1], [1, 1], 10, 1), rateLimit: { dialects: 1, quota: { min: 120, max: 120 } } },
        0,
        '0:1/2',
      ),
      summary(
        {
          ...part([2, 0, 2], [0, 2, 0], 30, 0.5),
          rateLimit: {
            dialects: 5,
            quota: { min: 100, max: 120 },
            windowSeconds: { min: 60, max: 60 },
            remainingOnLimitedMax: 2,
          },
        },
        40,
        '1/2:1',
      ),
    ]);
    expect(merged.lateMs).toEqual([0, 40]);
    expect(merged.runnerProblems).toBeUndefined();
    // A runner told another common start is out of step by the difference, on top of its own lateness.
    const apart = mergeSummaries([
      summary(part([1], [0], 10, 1), 0, '0:1/2'),
      summary(part([1], [0], 10, 1), 40, '1/2:1', 1200),
    ]);
    expect(apart.lateMs).toEqual([0, 240]);
    const [phase] = merged.phases;
    expect(phase!.slots).toEqual({
      admitted: [5, 1, 2],
      limited: [1, 3, 0],
      admittedMaxRttMs: [30, 10, 30],
      limitedMinRttMs: [10, 10, 0],
    });
    expect(phase!.retryAfterValid).toBeCloseTo((2 * 1 + 2 * 0.5) / 4);
    expect(phase!.roundTrips).toEqual({ minMs: 10, p99Ms: 30, maxMs: 30 });
    expect(phase!.rateLimit).toEqual({
      dialects: 5,
      quota: { min: 100, max: 120 },
      windowSeconds: { min: 60, max: 60 },
      remainingOnLimitedMax: 2,
    });
    expect(apart.phases[0]!.rateLimit).toBeUndefined();
  });
});

describe('path ids by JSON Pointer', () => {
  it('follows RFC 6901, escapes included, and says undefined where the pointer leads nowhere', () => {
    const doc = { batch: { id: 'b-1' }, 'a/b': { '~x': 7 }, list: ['first'] };
    expect(atPointer(doc, '/batch/id')).toBe('b-1');
    expect(atPointer(doc, '/a~1b/~0x')).toBe(7);
    expect(atPointer(doc, '/list/0')).toBe('first');
    expect(atPointer(doc, '')).toBe(doc);
    expect(atPointer(doc, '/batch/id/deeper')).toBeUndefined();
    expect(atPointer(doc, '/missing')).toBeUndefined();
  });
});
