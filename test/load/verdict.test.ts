// The pure parts of the load probes: the plan built from the spec data, and how results are judged and merged.
import { describe, expect, it } from 'vitest';
import { availableProbes, type PhasePlan, planProbes } from '../../load/lib/plan.ts';
import { atPointer } from '../../load/lib/pointer.ts';
import { enforcedPerWindow, judge, mergeSummaries, type PhaseResult } from '../../load/lib/verdict.ts';
import { specData } from '../../src/spec/export.ts';
import type { Profile } from '../../src/spec/index.ts';

const target: Profile = {
  base_url: 'http://127.0.0.1:1',
  auth_url: 'http://127.0.0.1:1/oauth2/token',
  tenant: 'acme',
  clients: {
    primary: { client_id: 'a', client_secret: 's' },
    same_tenant: { client_id: 'b', client_secret: 's' },
  },
  observability: ['GET /api/observability/a', 'GET /api/observability/b'],
};

const phaseOf = (name: string, profile: Profile = target): PhasePlan => {
  const found = planProbes(specData(), profile, { scenarios: ['all'] })
    .probes.flatMap((p) => p.phases)
    .find((p) => p.name === name);
  if (!found) throw new Error(name);
  return found;
};

const result = (
  plan: PhasePlan,
  admitted: number[],
  limited: number[],
  extra: Partial<PhaseResult> = {},
): PhaseResult => ({
  plan,
  offered: 0,
  admitted: admitted.reduce((a, b) => a + b, 0),
  limited: limited.reduce((a, b) => a + b, 0),
  refused: 0,
  dropped: 0,
  retryAfterValid: 1,
  retryAfterMax: 1,
  slots: { admitted, limited },
  ...extra,
});

describe('load plan', () => {
  it('derives one probe per bucket from the spec data, with SPEC.md limits and rates around them', () => {
    const over = phaseOf('over_transactions');
    expect(over.limit).toEqual({ count: 500, per: 'second', windowMs: 1000 });
    expect(over.offeredPerWindow).toBe(650);
    expect(phaseOf('within_transactions').offeredPerWindow).toBe(450);
    expect(phaseOf('over_observability-shared').endpoints).toEqual(target.observability);
    // A limit of one per window is probed within at one request every other window.
    expect(phaseOf('within_rerun').offeredPerWindow).toBe(0.5);
    expect(availableProbes(specData(), target).map((p) => p.name)).not.toContain('tenant-isolation');
  });

  it('leaves out probes of acting endpoints when side_effects is deny', () => {
    const names = availableProbes(specData(), { ...target, side_effects: 'deny' }).map((p) => p.name);
    expect(names).not.toContain('transactions');
    expect(names).not.toContain('rerun');
    expect(names).toContain('schedule');
  });

  it('runs the phases of one bucket one after another, a window apart', () => {
    const within = phaseOf('within_schedule');
    const over = phaseOf('over_schedule');
    expect(over.startMs).toBe(within.startMs + within.durationMs + within.limit.windowMs);
    expect(phaseOf('over_tenant-sharing').startMs).toBeGreaterThan(phaseOf('knee_schedule').startMs);
  });
});

describe('load verdicts', () => {
  const knee = phaseOf('knee_upload-url', { ...target, minute_ms: 2000 });

  it('reads the enforced limit from the limiter rhythm, whichever way mixed slots fall', () => {
    // Observed: runs of 20 with window edges inside slots (from a real run against the reference server).
    const admitted = [1, 2, 2, 2, 1, 2, 2, 3, 3, 3, 3, 3, 1, 0, 0, 2, 3, 4, 3, 4, 4, 0, 0];
    const limited = [0, 0, 0, 0, 2, 1, 0, 0, 0, 0, 0, 0, 2, 3, 4, 1, 0, 0, 0, 0, 0, 4, 4];
    expect(enforcedPerWindow(result(knee, admitted, limited))).toBe(20);
    expect(enforcedPerWindow(result(knee, [5, 5, 5], [0, 0, 0]))).toBe(0);
  });

  it('fails over when the admitted rate is more than 1 % off, or a 429 lacks a valid Retry-After', () => {
    const over = phaseOf('over_transactions');
    const slots = Array.from({ length: 11 }, () => 0);
    expect(judge(result(over, slots, slots, { admitted: 5000, limited: 1500 })).ok).toBe(true);
    expect(judge(result(over, slots, slots, { admitted: 5051, limited: 1500 })).message).toMatch(
      /1\.0 % off/,
    );
    expect(
      judge(result(over, slots, slots, { admitted: 5000, limited: 1500, retryAfterValid: 0.5 })).message,
    ).toMatch(/750 of 1500 429s without an integer Retry-After/);
  });

  it('merges instances by adding counts and slots, weighting Retry-After validity by 429s', () => {
    const over = phaseOf('over_transactions');
    const summary = (admitted: number[], limited: number[], valid: number) => ({
      target: 't',
      generatedAt: '',
      instances: 2,
      phases: [result(over, admitted, limited, { retryAfterValid: valid })],
    });
    const merged = mergeSummaries([summary([3, 1], [1, 1], 1), summary([2, 2, 2], [0, 2, 0], 0.5)])
      .phases[0]!;
    expect(merged.slots).toEqual({ admitted: [5, 3, 2], limited: [1, 3, 0] });
    expect(merged.admitted).toBe(10);
    expect(merged.retryAfterValid).toBeCloseTo((2 * 1 + 2 * 0.5) / 4);
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
