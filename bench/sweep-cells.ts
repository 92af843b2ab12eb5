// The cells of `npm run bench:accuracy -- sweep` and how one is judged, on virtual time (test/support/simulation/):
// each limit fault of the fault matrix under an aligned limiter, and each faithful limiter kind, from every start
// phase in 1 % steps of the window. Shared by the sweep (bench/sweep.ts) and its workers.
import type { FaultName, LimiterKind } from '../src/reference/index.ts';
import type { NetworkCondition } from '../src/reference/toxiproxy.ts';
import { seededRandom } from '../src/runner/seeded-random.ts';
import { BUCKETS } from '../src/spec/index.ts';
import { deviationsOf, EXPECTED, expectedUnder, withFault } from '../test/conformance/fault-matrix.ts';
import { runSimulated } from '../test/support/simulation/run.ts';
import { SCALED } from '../test/support/testbed.ts';

/**
 * The length of a "minute" on the server: 2 s as the tests run, or HARNESS_SWEEP_MINUTE_MS (60000: real minutes,
 * where a second's rounding or a 200 ms round trip is a sixtieth of what it is at 2 s). Tokens live two and a half
 * minutes at either scale.
 */
export const SWEEP_MINUTE_MS = Number(process.env.HARNESS_SWEEP_MINUTE_MS ?? SCALED.minuteMs);
const scale = {
  minuteMs: SWEEP_MINUTE_MS,
  tokenLifetimeSeconds: (SCALED.tokenLifetimeSeconds! * SWEEP_MINUTE_MS) / SCALED.minuteMs!,
};

export interface SweepCell {
  /** A fault of the reference server, or `faithful`. */
  readonly server: FaultName | 'faithful';
  readonly limiter: LimiterKind;
  readonly network: NetworkCondition;
  /** Where in an aligned window the run starts, in hundredths; under another kind, which seed draws the polls. */
  readonly phase: number;
}

export interface CellResult {
  /** A fault: its rule's checks all came out as the matrix says. A faithful server: nothing FAILed or WARNed. */
  readonly right: boolean;
  /** What came out otherwise, `ID GRADE` each (none when right). */
  readonly otherwise: readonly string[];
  /** The checks INCONCLUSIVE where the matrix does not say so: no false verdict, but none at all. */
  readonly inconclusive: readonly string[];
  /** The run's CPU time as wall time in its worker: what a cell costs the sweep. */
  readonly ms?: number;
}

/** The checks a fault's cell selects, and what they must show: its rule on one bucket (the run costs a bucket's probe). */
const ruleOf = (fault: FaultName): Record<string, string> => {
  const deviate = expectedUnder(fault, 'aligned')[1];
  const suffixes = Object.keys(BUCKETS).map((b) => `-${b.toUpperCase()}`);
  const buckets = [
    ...new Set(Object.keys(deviate).flatMap((id) => suffixes.filter((suffix) => id.endsWith(suffix)))),
  ];
  // A property of every bucket is swept on one (rules-execute where it is among them): each bucket's probe is the same.
  const bucket = buckets.includes('-RULES-EXECUTE') ? '-RULES-EXECUTE' : buckets[0]!;
  const many = Object.keys(deviate).filter((id) => id.startsWith('LIMIT-')).length > 2;
  return many ? Object.fromEntries(Object.entries(deviate).filter(([id]) => id.endsWith(bucket))) : deviate;
};

/** The faults of the matrix a limit check or a RateLimit field check catches: those where a window's phase matters. */
export const SWEPT_FAULTS: readonly FaultName[] = (Object.keys(EXPECTED) as FaultName[]).filter((fault) =>
  Object.keys(EXPECTED[fault]![1]).some((id) => /^(LIMIT|RATELIMIT)-/.test(id)),
);

const seedOf = (cell: SweepCell) =>
  1 + Math.floor(seededRandom(cell.phase * 7919 + cell.limiter.length * 104_729)() * 1_000_000);

export const runCell = async (cell: SweepCell): Promise<CellResult> => {
  const phaseMs = Math.round((cell.phase / 100) * SWEEP_MINUTE_MS);
  const settings = { seed: seedOf(cell), network: cell.network, phaseMs };
  if (cell.server === 'faithful') {
    const report = await runSimulated(
      { ...scale, limiter: cell.limiter },
      { ...settings, only: ['limits', 'ratelimit'] },
    );
    const otherwise = report.checks
      .filter((c) => c.grade === 'FAIL' || c.grade === 'WARN' || c.grade === 'ERROR')
      .map((c) => `${c.id} ${c.grade}`);
    const inconclusive = report.checks.filter((c) => c.grade === 'INCONCLUSIVE').map((c) => c.id);
    return { right: otherwise.length === 0, otherwise, inconclusive };
  }
  const fault = cell.server;
  const rule = ruleOf(fault);
  const report = await runSimulated(
    { ...scale, ...withFault(fault), limiter: cell.limiter },
    { ...settings, only: Object.keys(rule) },
  );
  // Judged as fault-cells.ts judges a cell: its deviations, less what the fault may also cause, against the rule's.
  const got = deviationsOf(report, fault);
  const otherwise = report.checks
    .filter((c) => (got[c.id] ?? 'PASS') !== (rule[c.id] ?? 'PASS'))
    .map((c) => `${c.id} ${c.grade}`);
  const inconclusive = report.checks
    .filter((c) => c.grade === 'INCONCLUSIVE' && rule[c.id] !== 'INCONCLUSIVE')
    .map((c) => c.id);
  return { right: otherwise.length === 0, otherwise, inconclusive };
};
