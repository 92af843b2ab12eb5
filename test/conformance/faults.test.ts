// Both directions between the faults of the reference server and the checks, on virtual time (test/support/
// simulation/): every fault under every limiter kind, and the limit faults wherever an aligned window stands at the
// start. Forward: against each injected fault, exactly the checks for the broken rule deviate (fault-matrix.ts, with
// UNDER_KIND's named exceptions). Reverse: every grade a check declares in failsWith is drawn by at least one server,
// so a check that could `return 'ok'` unnoticed fails this file. faults-real-time.test.ts runs a sample of these
// cells on real time too, with the same grades: the check that the simulation agrees with reality.
import { describe, expect, it } from 'vitest';
import { FAULTS, type FaultName, LIMITER_KINDS } from '../../src/reference/index.ts';
import { runSimulated } from '../support/simulation/run.ts';
import { deviations, SCALED } from '../support/testbed.ts';
import {
  BEYOND_FAULTS,
  CASCADING,
  checksOfTarget,
  deviationsOf,
  EXPECTED,
  expectedUnder,
  NAMED,
  PHASED,
  withFault,
} from './fault-matrix.ts';

/** One seed for every cell: a cell's run is the same every time, so a change in a grade is the code's doing. */
const SEED = 11;

describe('conformance suite against each fault', () => {
  it('covers every fault the reference server has', () => {
    expect(new Set([...Object.keys(EXPECTED), ...Object.keys(CASCADING)])).toEqual(
      new Set(FAULTS.map((f) => f.name)),
    );
  });

  it('makes every grade a check declares (failsWith) come out of some server', () => {
    const drawn = new Set(
      [
        ...Object.values(EXPECTED),
        ...Object.values(CASCADING),
        ...Object.values(BEYOND_FAULTS).map((b) => b[2]),
      ]
        .flatMap((expected) => Object.entries(expected![1]))
        .map(([id, grade]) => `${id} ${grade}`),
    );
    const declared = checksOfTarget().flatMap((c) => c.failsWith.map((grade) => `${c.id} ${grade}`));
    expect(declared.filter((pair) => !drawn.has(pair))).toEqual([]);
  });

  it.each(LIMITER_KINDS.flatMap((kind) => Object.keys(EXPECTED).map((fault) => [fault, kind] as const)))(
    '%s under %s: exactly the checks for the broken rule deviate',
    async (fault, kind) => {
      const [only, deviate] = expectedUnder(fault as FaultName, kind);
      const report = await runSimulated(
        { ...withFault(fault as FaultName), limiter: kind },
        { only, seed: SEED },
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

  it.each(Object.entries(BEYOND_FAULTS))('%s: exactly the checks for it deviate', async (_, setup) => {
    const [options, adjust, [only, deviate]] = setup;
    const report = await runSimulated(options, { only, seed: SEED, ...(adjust ? { adjust } : {}) });
    expect(deviations(report)).toEqual(deviate);
  });

  it.each(Object.entries(CASCADING))(
    '%s: the broken rule fails; what depends on it is skipped, never failed',
    async (fault, expected) => {
      const [only, failing] = expected!;
      const report = await runSimulated({ fault: fault as FaultName }, { only, seed: SEED });
      const found = deviations(report);
      expect(Object.fromEntries(Object.entries(found).filter(([, grade]) => grade !== 'SKIP'))).toEqual(
        failing,
      );
    },
  );
});

describe('limit faults wherever an aligned window stands at the start', () => {
  const tenths = Array.from({ length: 10 }, (_, i) => i / 10);
  it.each(PHASED.flatMap((fault) => tenths.map((phase) => [fault, phase] as const)))(
    '%s, started %s of a window in',
    async (fault, phase) => {
      const [only, deviate] = EXPECTED[fault]!;
      const report = await runSimulated(
        { ...withFault(fault), limiter: 'aligned' },
        { only, seed: SEED, phaseMs: Math.round(phase * SCALED.minuteMs!) },
      );
      expect(deviationsOf(report, fault)).toEqual(deviate);
    },
  );
});
