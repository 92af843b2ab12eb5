// The fault matrix's cells on virtual time (test/support/simulation/), for the files that run them: every fault
// under one limiter kind (faults-under-*.test.ts, a file per kind so the two cores share them), the limit faults
// from every tenth of an aligned window (faults-phased.test.ts), and some at real minutes
// (faults-real-minutes.test.ts). What each cell must show: fault-matrix.ts.
import { describe, expect, it } from 'vitest';
import type { FaultName, LimiterKind } from '../../src/reference/index.ts';
import { runSimulated } from '../support/simulation/run.ts';
import { SCALED } from '../support/testbed.ts';
import { deviationsOf, EXPECTED, expectedUnder, NAMED, PHASED, withFault } from './fault-matrix.ts';

/** One seed for every cell: a cell's run is the same every time, so a change in a grade is the code's doing. */
export const CELL_SEED = 11;

export const faultsUnder = (kind: LimiterKind) =>
  describe(`conformance suite against each fault under the ${kind} limiter`, () => {
    it.each(Object.keys(EXPECTED).map((fault) => [fault, kind] as const))(
      '%s under %s: exactly the checks for the broken rule deviate',
      async (fault, kind) => {
        const [only, deviate] = expectedUnder(fault as FaultName, kind);
        const report = await runSimulated(
          { ...withFault(fault as FaultName), limiter: kind },
          { only, seed: CELL_SEED },
        );
        expect(deviationsOf(report, fault as FaultName)).toEqual(deviate);
        for (const [id, pattern] of Object.entries(NAMED[fault as FaultName] ?? {}))
          expect(report.checks.find((c) => c.id === id)?.message).toMatch(pattern);
        // A limit FAIL on a proof carries the proof's timeline with its verdict, for the report to draw.
        for (const check of report.checks.filter((c) => c.grade === 'FAIL')) {
          if (/^more admitted than SPEC\.md allows|refused below the limit twice/.test(check.message))
            expect(check.timeline, check.id).toBeDefined();
        }
      },
    );
  });

export const faultsFromEveryTenth = () =>
  describe('limit faults wherever an aligned window stands at the start', () => {
    const tenths = Array.from({ length: 10 }, (_, i) => i / 10);
    it.each(PHASED.flatMap((fault) => tenths.map((phase) => [fault, phase] as const)))(
      '%s, started %s of a window in',
      async (fault, phase) => {
        const [only, deviate] = EXPECTED[fault]!;
        const report = await runSimulated(
          { ...withFault(fault), limiter: 'aligned' },
          { only, seed: CELL_SEED, phaseMs: Math.round(phase * SCALED.minuteMs!) },
        );
        expect(deviationsOf(report, fault)).toEqual(deviate);
      },
    );
  });

/**
 * A fault whose detection hangs on the window being long beside a second's rounding and a round trip (at 2 s minutes
 * a second is half the window): at real minutes (still virtual time), from every fifth of an aligned window, at `lan`
 * and `far`. The window too long and the penalty box, right at every phase there too, are in the sweep
 * (`HARNESS_SWEEP_MINUTE_MS=60000`); npm test holds them at 2 s minutes.
 */
const AT_REAL_MINUTES: readonly FaultName[] = ['retry-after-too-short'];

/**
 * Where a real-minute cell reads otherwise behind 200 ms round trips: half a sub-second wait is a Retry-After of 0 s,
 * and the per-second bucket's one-second window is over by the time its retry test goes (after the fresh burst's
 * variants), so only an edge poll tests the promise, with an admit of the spend answered after that 429, which may
 * have taken the room: not verified, never PASS (docs/limits.md, known limits).
 */
const AT_FAR: Partial<Record<FaultName, Readonly<Record<string, string>>>> = {
  'retry-after-too-short': { 'LIMIT-RETRY-HONOURED-TRANSACTION-EVENT': 'INCONCLUSIVE' },
};

export const faultsAtRealMinutes = () =>
  describe('limit faults at real minutes', () => {
    const minuteMs = 60_000;
    const cells = AT_REAL_MINUTES.flatMap((fault) =>
      (['lan', 'far'] as const).flatMap((network) =>
        Array.from({ length: 5 }, (_, i) => [fault, network, i / 5] as const),
      ),
    );
    it.each(cells)('%s at %s, started %s of a window in', async (fault, network, phase) => {
      const [only, deviate] = EXPECTED[fault]!;
      const report = await runSimulated(
        { ...withFault(fault), limiter: 'aligned', minuteMs, tokenLifetimeSeconds: 150 },
        { only, seed: CELL_SEED, network, phaseMs: Math.round(phase * minuteMs) },
      );
      expect(deviationsOf(report, fault)).toEqual(
        network === 'far' ? { ...deviate, ...AT_FAR[fault] } : deviate,
      );
    });
  });
