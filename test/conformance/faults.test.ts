// Both directions between the faults of the reference server and the checks, on virtual time (test/support/
// simulation/). Forward: against each injected fault, exactly the checks for the broken rule deviate (fault-matrix.ts,
// with UNDER_KIND's named exceptions): here the faults that need settings beyond a fault and those others depend on,
// and in fault-cells.ts every fault under every limiter kind (one file per kind, faults-under-*.test.ts, so the two
// cores share them) and the limit faults wherever an aligned window stands at the start (faults-phased.test.ts).
// Reverse: every grade a check declares in failsWith is drawn by at least one server, so a check that could
// `return 'ok'` unnoticed fails this file. faults-real-time.test.ts runs a sample of these cells on real time too,
// with the same grades: the check that the simulation agrees with reality.
import { describe, expect, it } from 'vitest';
import { FAULTS, type FaultName } from '../../src/reference/index.ts';
import { runSimulated } from '../support/simulation/run.ts';
import { deviations } from '../support/testbed.ts';
import { CELL_SEED } from './fault-cells.ts';
import { BEYOND_FAULTS, CASCADING, checksOfTarget, EXPECTED } from './fault-matrix.ts';

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

  it.each(Object.entries(BEYOND_FAULTS))('%s: exactly the checks for it deviate', async (_, setup) => {
    const [options, adjust, [only, deviate]] = setup;
    const report = await runSimulated(options, { only, seed: CELL_SEED, ...(adjust ? { adjust } : {}) });
    expect(deviations(report)).toEqual(deviate);
  });

  it.each(Object.entries(CASCADING))(
    '%s: the broken rule fails; what depends on it is skipped, never failed',
    async (fault, expected) => {
      const [only, failing] = expected!;
      const report = await runSimulated({ fault: fault as FaultName }, { only, seed: CELL_SEED });
      const found = deviations(report);
      expect(Object.fromEntries(Object.entries(found).filter(([, grade]) => grade !== 'SKIP'))).toEqual(
        failing,
      );
    },
  );
});
