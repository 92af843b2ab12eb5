// How right `harness load --scenario transactions` is, cell by cell: the reference server with each limiter kind,
// behind Toxiproxy at each network condition, faithful, with its transaction limit 10 % low, and with it
// unenforced. Per cell: each phase's grade and the reading's error against the limit, dropped iterations, and the
// CPU k6 used. The profile always states the limit the plan expects, whatever the server enforces.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findK6 } from '../src/k6-driver/k6.ts';
import { type FinishedPhase, runLoad } from '../src/k6-driver/run.ts';
import type { LimiterKind } from '../src/reference/limiter-kinds.ts';
import { type NetworkCondition, startReferenceBehind } from '../src/reference/toxiproxy.ts';

export type ServerCase = 'faithful' | 'low' | 'unenforced';

export interface AccuracyCell {
  readonly condition: NetworkCondition;
  readonly limiter: LimiterKind;
  readonly server: ServerCase;
  readonly limitPerSecond: number;
  readonly phases: readonly FinishedPhase[];
  readonly roundTripMs: number;
  readonly wallSeconds: number;
  /** k6's CPU over the run's wall time: 1.0 is one core busy throughout. */
  readonly k6CoresBusy: number;
}

const childCpuSeconds = (): number => {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[13]) + Number(fields[14])) / 100;
};

const ENFORCED: Record<ServerCase, (limit: number) => number> = {
  faithful: (limit) => limit,
  low: (limit) => Math.round(limit * 0.9),
  unenforced: () => 1_000_000,
};

export const measureCell = async (
  condition: NetworkCondition,
  limiter: LimiterKind,
  server: ServerCase,
  limitPerSecond: number,
): Promise<AccuracyCell> => {
  const count = ENFORCED[server](limitPerSecond);
  const bed = await startReferenceBehind(condition, {
    limiter,
    limits: { 'transaction-event': { count, per: 'second' } },
  });
  try {
    const profile = {
      ...bed.profile,
      limits: { 'transaction-event': { count: limitPerSecond, per: 'second' as const } },
    };
    const cpuBefore = childCpuSeconds();
    const started = performance.now();
    const finished = await runLoad({
      k6: findK6(),
      profile,
      plan: { scenarios: ['transactions'] },
      instances: 1,
      dir: mkdtempSync(join(tmpdir(), 'harness-accuracy-')),
      label: 'transactions',
    });
    const wallSeconds = (performance.now() - started) / 1000;
    return {
      condition,
      limiter,
      server,
      limitPerSecond,
      phases: finished.phases,
      roundTripMs: finished.roundTripMs,
      wallSeconds,
      k6CoresBusy: (childCpuSeconds() - cpuBefore) / wallSeconds,
    };
  } finally {
    await bed.close();
  }
};

/** A cell as one table row: grades of within/over/knee, and the readings' error in percent. */
export const cellRow = (cell: AccuracyCell) => {
  const of = (phase: string) => cell.phases.find((p) => p.phase.startsWith(phase));
  const error = (phase: string) => {
    const e = of(phase)?.errorPercent;
    return e === undefined ? '' : `${e >= 0 ? '+' : ''}${e.toFixed(2)}`;
  };
  return {
    condition: cell.condition,
    limiter: cell.limiter,
    server: cell.server,
    within: of('within')?.grade,
    over: of('over')?.grade,
    'over err %': error('over'),
    knee: of('knee')?.grade,
    'knee err %': error('knee'),
    dropped: cell.phases.reduce((n, p) => n + p.dropped, 0),
    'rtt ms': Math.round(cell.roundTripMs),
    'k6 cores': cell.k6CoresBusy.toFixed(2),
  };
};
