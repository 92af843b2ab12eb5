// The check that the simulation agrees with reality: a sample of fault-cells.ts's cells, one or more per limiter
// kind and per kind of proof (a FAIL on the bounds, a WARN on a header, a sharing FAIL), run against the reference
// server on real time and on virtual time, with the same deviations from both. Real time is test:long's.
import { describe, expect, it } from 'vitest';
import type { FaultName, LimiterKind } from '../../src/reference/index.ts';
import type { RunReport } from '../../src/runner/types.ts';
import { runSimulated } from '../support/simulation/run.ts';
import { deviations, runAgainst } from '../support/testbed.ts';
import { deviationsOf, expectedUnder, withFault } from './fault-matrix.ts';

const SAMPLE: readonly (readonly [FaultName, LimiterKind])[] = [
  ['retry-after-too-long', 'anchored'],
  ['limit-window-short', 'aligned'],
  ['limit-per-path-id', 'sliding-log'],
  ['wrong-limit-execute', 'token-bucket'],
  ['limit-first-window-low', 'token-bucket'],
  ['limit-shared-across-tenants', 'anchored'],
  ['limit-counts-refused', 'anchored'],
  ['expired-token-accepted', 'anchored'],
];

/**
 * The fault's real-time run, once more where the checks it should FAIL were INCONCLUSIVE and nothing else deviated: a
 * sharing check on a starved runner sends its variants late, and only the weak stretch bound is left (no verdict,
 * never a false one; issue 21 names it). Two fresh-clone runs of 2026-11-26 and 2026-11-27 had it once each.
 */
const decided = async (fault: FaultName, kind: LimiterKind): Promise<RunReport> => {
  const [only, deviate] = expectedUnder(fault, kind);
  const run = async () => (await runAgainst({ ...withFault(fault), limiter: kind }, { only }))[0]!;
  const first = await run();
  const got = Object.entries(deviationsOf(first, fault));
  const undecided =
    got.length === Object.keys(deviate).length &&
    got.every(
      ([id, grade]) => deviate[id] === grade || (deviate[id] === 'FAIL' && grade === 'INCONCLUSIVE'),
    ) &&
    got.some(([id, grade]) => deviate[id] !== grade);
  return undecided ? run() : first;
};

describe.concurrent('the simulation agrees with real time', () => {
  it.each(SAMPLE)('%s under %s: the same deviations on real and on virtual time', async (fault, kind) => {
    const [only, deviate] = expectedUnder(fault, kind);
    const [real, simulated] = await Promise.all([
      decided(fault, kind),
      runSimulated({ ...withFault(fault), limiter: kind }, { only, seed: 11 }),
    ]);
    expect(deviationsOf(real, fault)).toEqual(deviate);
    expect(deviationsOf(simulated, fault)).toEqual(deviationsOf(real, fault));
  });
});

describe('the faithful server on real time', () => {
  it('passes every check, as it does on virtual time', async () => {
    const [[real], simulated] = await Promise.all([runAgainst({}), runSimulated({}, { seed: 11 })]);
    expect(deviations(real!)).toEqual({});
    expect(deviations(simulated)).toEqual(deviations(real!));
  });
});
