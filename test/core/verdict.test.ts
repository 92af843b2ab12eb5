// Load verdicts on simulated runs (simulate.ts): every limiter kind the reference server runs, behind loopback, a
// region and a far network, with its windows at several offsets from the phases. A faithful server never FAILs and
// reads within 1 % (2 % far); a wrong limit FAILs wherever the evidence can prove it; harness's own shortfalls are
// INCONCLUSIVE.
import { describe, expect, it } from 'vitest';
import type { LoadSummary } from '../../core/evidence.ts';
import { judgeAll, type PhaseVerdict } from '../../core/verdict.ts';
import { createLimitState, LIMITER_KINDS, type LimitState } from '../../src/reference/limiter-kinds.ts';
import { NETWORKS, type Simulation, simulate, TARGET } from '../load/simulate.ts';

type Condition = keyof typeof NETWORKS;
const CONDITIONS = Object.keys(NETWORKS) as Condition[];
/** Offsets of the server's clock against the plan, as shares of a window: moves aligned windows across phases. */
const OFFSETS = [0, 0.37, 0.81];

const judged = (sim: Omit<Simulation, 'network'> & { condition: Condition }, scenarios: string[]) => {
  const summary = simulate({ ...sim, network: NETWORKS[sim.condition] }, { scenarios });
  const verdicts = judgeAll(summary);
  return summary.phases.map((p, i) => ({
    name: p.plan.name,
    phase: p.plan.phase,
    limit: p.plan.limit.count,
    ...verdicts[i]!,
  }));
};

const grades = (verdicts: readonly (PhaseVerdict & { name: string })[]) =>
  Object.fromEntries(verdicts.map((v) => [v.name, v.grade]));

describe.each(LIMITER_KINDS)('a faithful %s limiter', (kind) => {
  it.each(CONDITIONS)('passes every phase at %s, reading the limit within the bound', (condition) => {
    for (const share of OFFSETS) {
      // Transactions (200 / second in the simulated profile) and execute (30 / 2 s "minute").
      const verdicts = judged({ kind, condition, clockOffsetMs: share * 1000, seed: share * 100 }, [
        'transactions',
        'execute',
        'rerun',
      ]);
      expect(grades(verdicts), `offset ${share}`).toEqual(
        Object.fromEntries(verdicts.map((v) => [v.name, 'PASS'])),
      );
      for (const v of verdicts.filter((x) => x.phase !== 'within')) {
        // 1 % (2 % far), or one request where the limit is small: a count cannot resolve less.
        const bound = Math.max(condition === 'far' ? 2 : 1, 100 / v.limit);
        expect(Math.abs(v.errorPercent!), `${v.name} at offset ${share}: ${v.message}`).toBeLessThanOrEqual(
          bound,
        );
      }
    }
  });
});

describe('at real minutes', () => {
  it.each(['aligned', 'anchored'] as const)(
    'a %s window reads the knee right after a saturated phase, wherever its windows begin',
    (kind) => {
      // The knee starts at half the limit inside a window the over phase spent: that window's 429s must not start
      // spans across the unfilled window after it.
      for (let tenth = 0; tenth < 10; tenth++) {
        const summary = simulate(
          { kind, network: NETWORKS.region, clockOffsetMs: tenth * 6000 },
          { scenarios: ['schedule', 'rerun'] },
          { ...TARGET, minute_ms: 60_000 },
        );
        const verdicts = judgeAll(summary);
        expect(verdicts.map((v) => v.grade).join(), `offset ${tenth}/10 of a window`).toBe(
          'PASS,PASS,PASS,PASS,PASS,PASS',
        );
      }
    },
  );
});

describe('a wrong limit', () => {
  it.each(LIMITER_KINDS)('unenforced (%s): over and knee FAIL everywhere, naming the excess', (kind) => {
    for (const condition of CONDITIONS) {
      const verdicts = judged({ kind, condition, enforced: Number.POSITIVE_INFINITY }, [
        'transactions',
        'execute',
      ]);
      for (const v of verdicts.filter((x) => x.phase !== 'within')) {
        expect(v.grade, `${condition} ${v.name}`).toBe('FAIL');
        expect(v.message).toMatch(
          /^more admitted than \d+ \/ (second|minute).* allows: (no 429 at all; )?\d+ requests admitted/,
        );
      }
    }
  });

  it.each(LIMITER_KINDS)('a limit 10 percent high (%s) FAILs wherever the limiter runs', (kind) => {
    for (const condition of CONDITIONS) {
      const verdicts = judged({ kind, condition, enforced: 1.1 }, ['transactions']);
      expect(verdicts.find((v) => v.phase === 'over')!.grade, condition).toBe('FAIL');
    }
  });

  it.each(['anchored', 'aligned', 'sliding-log'] as const)(
    'a limit 10 percent low (%s) FAILs at every condition, proven by a 429 with too few admitted before it',
    (kind) => {
      for (const condition of CONDITIONS) {
        for (const share of OFFSETS) {
          const verdicts = judged({ kind, condition, enforced: 0.9, clockOffsetMs: share * 1000 }, [
            'transactions',
          ]);
          const failed = verdicts.filter((v) => v.grade === 'FAIL');
          expect(failed.length, `${condition} ${share}`).toBeGreaterThan(0);
          expect(failed[0]!.message).toMatch(
            /^limited below 200 \/ second: a 429 .* at most \d+ requests admitted/,
          );
          expect(verdicts.some((v) => v.grade === 'PASS' && v.phase !== 'within')).toBe(false);
        }
      }
    },
  );

  it('10 % low (token bucket): FAILs where round trips are short enough to prove it, and reads it where not', () => {
    // Proof needs a 429 with fewer than N admitted in the window plus one round trip before it: 180 × (1 + r/W) < 200.
    for (const condition of ['lan', 'region'] as const) {
      const verdicts = judged({ kind: 'token-bucket', condition, enforced: 0.9 }, ['transactions']);
      expect(verdicts.filter((v) => v.phase !== 'within').map((v) => v.grade)).not.toContain('PASS');
      expect(verdicts.find((v) => v.grade === 'FAIL')!.message).toMatch(
        /^limited below 200 \/ second: a 429/,
      );
    }
    const far = judged({ kind: 'token-bucket', condition: 'far', enforced: 0.9 }, ['transactions']);
    for (const v of far.filter((x) => x.phase !== 'within')) {
      expect(v.grade, v.name).toBe('INCONCLUSIVE');
      expect(v.errorPercent).toBeCloseTo(-10, 0);
      expect(v.message).toMatch(
        /^reads 1[78]\d(\.\d+)? per window \([\d.]+ % below .*the evidence cannot prove it/,
      );
    }
  });
});

describe('grades that are not about the limit', () => {
  it('dropped iterations make a phase INCONCLUSIVE, never FAIL, even when the reading is off', () => {
    const verdicts = judged({ kind: 'anchored', condition: 'lan', dropped: { over_transactions: 40 } }, [
      'transactions',
    ]);
    const over = verdicts.find((v) => v.name === 'over_transactions')!;
    expect(over.grade).toBe('INCONCLUSIVE');
    expect(over.message).toBe('harness could not offer 400/s: 40 iterations dropped (all VUs busy)');
    expect(verdicts.find((v) => v.name === 'knee_transactions')!.grade).toBe('PASS');
  });

  it('k6 starting iterations late, or instances out of step, makes every affected phase INCONCLUSIVE', () => {
    const summary = simulate({ kind: 'aligned', network: NETWORKS.lan }, { scenarios: ['transactions'] });
    const late: LoadSummary = {
      ...summary,
      phases: summary.phases.map((p) =>
        p.plan.phase === 'knee' ? { ...p, startLagMs: { p99: 180, max: 400 } } : p,
      ),
    };
    expect(judgeAll(late).map((v) => v.grade)).toEqual(['PASS', 'PASS', 'INCONCLUSIVE']);
    expect(judgeAll(late)[2]!.message).toMatch(
      /k6 started 1 % of iterations over 180 ms late \(CPU starved\)/,
    );
    const apart = judgeAll({ ...summary, lateMs: [0, 900] });
    expect(
      apart.every((v) => v.grade === 'INCONCLUSIVE' && /instances started 900 ms apart/.test(v.message)),
    ).toBe(true);
  });

  it('a token bucket holding more than the limit is WARN, and one holding the limit is PASS with its burst noted', () => {
    /** Capacity 1.5 × count, refilled count per window. */
    const bigBucket = (count: number, ms: number): LimitState => {
      let tokens = 1.5 * count;
      let at = 0;
      return {
        admit: (now) => {
          tokens = Math.min(1.5 * count, tokens + ((now - at) * count) / ms);
          at = now;
          if (tokens < 1) return ((1 - tokens) * ms) / count;
          tokens -= 1;
          return 0;
        },
      };
    };
    const big = judged({ kind: 'token-bucket', condition: 'region', limiter: bigBucket }, ['transactions']);
    const over = big.find((v) => v.name === 'over_transactions')!;
    expect(over.grade).toBe('WARN');
    expect(over.message).toMatch(/a token bucket with a capacity above 200/);
    const faithful = judged({ kind: 'token-bucket', condition: 'region' }, ['transactions']);
    expect(faithful.find((v) => v.name === 'over_transactions')!.notes.join()).toMatch(
      /opening burst: \d+ admitted/,
    );
  });

  it('a 429 without an integer Retry-After, or another refusal status, FAILs the phase', () => {
    const summary = simulate({ kind: 'anchored', network: NETWORKS.lan }, { scenarios: ['transactions'] });
    const broken: LoadSummary = {
      ...summary,
      phases: summary.phases.map((p) =>
        p.plan.phase === 'over' ? { ...p, retryAfterValid: 0.5, refused: 3 } : p,
      ),
    };
    const over = judgeAll(broken)[1]!;
    expect(over.grade).toBe('FAIL');
    expect(over.message).toMatch(/of \d+ 429s without an integer Retry-After \(SPEC\.md §8 rule 2\)/);
    expect(over.message).toMatch(/3 requests answered with a status other than 2xx or 429/);
  });

  it('a Retry-After longer than the window makes a passing phase WARN, as conformance grades it, never FAIL', () => {
    const summary = simulate({ kind: 'anchored', network: NETWORKS.lan }, { scenarios: ['transactions'] });
    const long: LoadSummary = {
      ...summary,
      phases: summary.phases.map((p) => (p.limited > 0 ? { ...p, retryAfterMax: 3600 } : p)),
    };
    const [within, over, knee] = judgeAll(long);
    expect([within!.grade, over!.grade, knee!.grade]).toEqual(['PASS', 'WARN', 'WARN']);
    expect(over!.message).toMatch(
      /^Retry-After is 3600 s, longer than the 1 s window \(SPEC\.md §8 rule 2 asks only for integer seconds\): the longest of \d+ 429s; reads /,
    );
    const faithful = judgeAll(summary);
    expect([faithful[1]!.grade, faithful[2]!.grade]).toEqual(['PASS', 'PASS']);
  });

  it('grades a phase of half a million slots (an hour at SPEC.md limits) without overflowing the stack', () => {
    const summary = simulate({ kind: 'anchored', network: NETWORKS.lan }, { scenarios: ['transactions'] });
    const padded = (values: readonly number[]) => [...values, ...new Array<number>(500_000).fill(0)];
    const long: LoadSummary = {
      ...summary,
      phases: summary.phases.map((p) => ({
        ...p,
        slots: {
          admitted: padded(p.slots.admitted),
          limited: padded(p.slots.limited),
          admittedMaxRttMs: padded(p.slots.admittedMaxRttMs),
          limitedMinRttMs: padded(p.slots.limitedMinRttMs),
        },
      })),
    };
    // Before, the (L) proof spread every slot's round trip into Math.max: "Maximum call stack size exceeded".
    expect(judgeAll(long).map((v) => v.grade)).toEqual(judgeAll(summary).map((v) => v.grade));
  });

  it('tenant-isolation FAILs the other tenant when the tenants share a limit', () => {
    // One state for every key: the limiter ignores the tenant.
    let one: LimitState | undefined;
    const shared = (count: number, ms: number) => (one ??= createLimitState('anchored', count, ms));
    const verdicts = judged({ kind: 'anchored', condition: 'far', limiter: shared }, ['tenant-isolation']);
    const beside = verdicts.find((v) => v.name === 'within_tenant-isolation_beside')!;
    expect(beside.grade).toBe('FAIL');
    expect(beside.message).toMatch(/^limited below 200 \/ second: a 429/);
  });

  it('a target that never answers, or a token endpoint that fails, is named before the VUs it kept busy', () => {
    const summary = simulate({ kind: 'anchored', network: NETWORKS.lan }, { scenarios: ['transactions'] });
    const silent = (p: LoadSummary['phases'][number]) => ({
      ...p,
      admitted: 0,
      limited: 0,
      dropped: 40,
      slots: { ...p.slots, admitted: p.slots.admitted.map(() => 0), limited: p.slots.limited.map(() => 0) },
    });
    const hanging = judgeAll({ ...summary, phases: summary.phases.map(silent) });
    expect(hanging.map((v) => v.grade)).toEqual(['INCONCLUSIVE', 'INCONCLUSIVE', 'INCONCLUSIVE']);
    expect(hanging[0]!.message).toBe(
      'harness could not offer 180/s: not one request was admitted or limited; 40 iterations dropped (all VUs busy)',
    );
    const tokenless = judgeAll({
      ...summary,
      phases: summary.phases.map((p, i) => ({
        ...silent(p),
        noToken: 500,
        tokenFailures: [
          { count: 12, minStatus: 0, maxStatus: 503 },
          undefined,
          { count: 2, minStatus: 200, maxStatus: 200 },
        ][i],
      })),
    });
    expect(tokenless[0]!.message).toMatch(
      /^harness could not offer 180\/s: 500 requests not sent for want of a token: the token endpoint answered 0 to 503 \(0: no answer\) to 12 token requests; not one/,
    );
    expect(tokenless[1]!.message).toMatch(
      /for want of a token: none of this phase's token requests failed: the token endpoint failed before it, or its tokens live too briefly for every VU to renew within the run's bound of 10 token requests a second/,
    );
    expect(tokenless[2]!.message).toMatch(
      /the token endpoint answered 200 without an access_token to 2 token/,
    );
  });
});
