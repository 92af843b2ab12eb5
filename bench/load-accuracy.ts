// How exactly the k6 probes find a limit: against the reference server with its transaction limit at SPEC.md's
// 500/s and at another value, the over and knee phases' reading next to the configured limit, with dropped
// iterations and the CPU k6 used (children's CPU time of this process, from /proc).
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { enforcedPerWindow, perSecond } from '../load/lib/verdict.ts';
import { findK6 } from '../src/cli/k6.ts';
import { runLoad } from '../src/load/run.ts';
import { startReferenceServer } from '../src/reference/index.ts';

const childCpuSeconds = (): number => {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[13]) + Number(fields[14])) / 100;
};

export interface AccuracyResult {
  readonly limitPerSecond: number;
  readonly overAdmittedPerSecond: number;
  readonly overErrorPercent: number;
  readonly kneeEnforcedPerWindow: number;
  readonly kneeErrorPercent: number;
  readonly droppedIterations: number;
  readonly k6CpuSeconds: number;
  readonly wallSeconds: number;
  /** k6's CPU over the run's wall time: 1.0 is one core busy throughout. */
  readonly k6CoresBusy: number;
}

export const measureAccuracy = async (
  limitPerSecond: number,
  durationMs = 10_000,
): Promise<AccuracyResult> => {
  const server = await startReferenceServer({
    limits: { 'transaction-event': { count: limitPerSecond, per: 'second' } },
  });
  try {
    const cpuBefore = childCpuSeconds();
    const started = performance.now();
    const { summary } = await runLoad({
      k6: findK6(),
      profile: server.profile(),
      plan: { scenarios: ['transactions'], durationMs },
      instances: 1,
      dir: mkdtempSync(join(tmpdir(), 'harness-accuracy-')),
      label: 'transactions',
    });
    const wallSeconds = (performance.now() - started) / 1000;
    const k6CpuSeconds = childCpuSeconds() - cpuBefore;
    const over = summary.phases.find((p) => p.plan.phase === 'over')!;
    const knee = summary.phases.find((p) => p.plan.phase === 'knee')!;
    const overAdmittedPerSecond = perSecond(over.admitted, over.plan);
    const kneeEnforcedPerWindow = enforcedPerWindow(knee);
    const percent = (measured: number) => (Math.abs(measured - limitPerSecond) / limitPerSecond) * 100;
    return {
      limitPerSecond,
      overAdmittedPerSecond,
      overErrorPercent: percent(overAdmittedPerSecond),
      kneeEnforcedPerWindow,
      kneeErrorPercent: percent(kneeEnforcedPerWindow),
      droppedIterations: summary.phases.reduce((sum, p) => sum + p.dropped, 0),
      k6CpuSeconds,
      wallSeconds,
      k6CoresBusy: k6CpuSeconds / wallSeconds,
    };
  } finally {
    await server.close();
  }
};
