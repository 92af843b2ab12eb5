// What a k6 killed before its end-of-test summary (the OOM killer, a SIGKILL) leaves of a run: the last checkpoint
// its harness-checkpoint output wrote (load/checkpoint, built into k6 by `npm run setup`; a stock k6 has none). Read
// back as the summary k6 would have written, with only the phases surely over by then judged.
import { createHash } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { LoadSummary } from '../../core/evidence.ts';
import { loadEnvName } from '../../core/load-env.ts';
import { type MetricValues, phaseResults, slotMetrics } from '../../core/phase-results.ts';
import type { K6Plan, PhasePlan } from '../../core/plan.ts';
import { gracefulStopMs } from '../../core/schedule.ts';
import { CHECKPOINT_OUTPUT, hasCheckpoint } from './k6.ts';

/** How long a sample may take from k6's VUs to its outputs: the engine hands them on in batches. */
const DELIVERY_MS = 1000;

export const checkpointFile = (dir: string, index: number) =>
  join(dir, 'runners', `runner-${index + 1}.checkpoint.json`);

interface Checkpoint {
  /** Every sample k6 handed the output before this moment (epoch ms) is counted. */
  readonly writtenAt: number;
  readonly metrics: Readonly<Record<string, MetricValues & { readonly value?: number }>>;
}

const isCheckpoint = (value: unknown): value is Checkpoint => {
  const shot = value as Partial<Checkpoint> | null;
  return typeof shot?.writtenAt === 'number' && typeof shot.metrics === 'object' && shot.metrics !== null;
};

/** The file's checkpoint; undefined when k6 wrote none (a stock k6, or killed within its first second). */
export const readCheckpoint = (file: string): Checkpoint | undefined => {
  try {
    const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
    return isCheckpoint(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
};

/**
 * `--out` for the checkpoint where k6 has it. A flag overrides K6_OUT, so the outputs the user named there are
 * passed on as flags too.
 */
export const outputArgs = (k6: string, checkpoint: string): string[] => {
  if (!hasCheckpoint(k6)) return [];
  const theirs = (process.env.K6_OUT ?? '').split(',').filter((out) => out.trim() !== '');
  return [...theirs, `${CHECKPOINT_OUTPUT}=${checkpoint}`].flatMap((out) => ['--out', out]);
};

/** What every runner of a run shares, beside what its own PreparedRunner holds. */
export interface RunContext {
  readonly plan: K6Plan;
  readonly instances: number;
  readonly targetName: string;
  readonly startAt: number;
  readonly roundTripMs: number;
  readonly runId: string;
  readonly versions: { readonly harness: string; readonly k6: string } | undefined;
}

/** The runner's fields a checkpoint's summary needs. */
interface CheckpointRunner {
  readonly env: NodeJS.ProcessEnv;
  /** As k6 itself reports them (load/lib/summary.ts). */
  readonly segment: string;
  readonly sequence: string;
}

/**
 * The summary the runner would have written, and how long after the common start its phases are surely over in the
 * checkpoint: every iteration of a phase has ended once its graceful stop has passed (core/schedule.ts), and
 * every sample of it has reached the output a moment later. `startedAt` (the harness_started_at gauge setup() sets)
 * is when the runner's schedule began; without it, setup() never finished and no phase ran.
 */
export const summaryFromCheckpoint = (
  checkpoint: Checkpoint,
  runner: CheckpointRunner,
  context: RunContext,
) => {
  const values = (name: string): MetricValues => checkpoint.metrics[name] ?? {};
  const startedAt = checkpoint.metrics.harness_started_at?.value;
  const phases = context.plan.probes.flatMap((p) => p.phases);
  const low = checkpoint.metrics.harness_clock_low?.max;
  const high = checkpoint.metrics.harness_clock_high?.min;
  const planText = runner.env[loadEnvName('plan')] ?? '';
  const summary: LoadSummary = {
    target: context.targetName,
    generatedAt: new Date(checkpoint.writtenAt).toISOString(),
    instances: context.instances,
    lateMs: [startedAt === undefined ? 0 : Math.max(0, startedAt - context.startAt)],
    preflightRequests: context.plan.preflight.requestsPerLimiter,
    phases: phaseResults(values, phases),
    runner: {
      runId: context.runId,
      planDigest: createHash('sha256').update(planText).digest('hex'),
      segment: runner.segment,
      sequence: runner.sequence,
      startAt: context.startAt,
      setupCompleted: startedAt !== undefined,
      harnessVersion: context.versions?.harness ?? 'unknown',
      k6Version: context.versions?.k6 ?? 'unknown',
      clock: {
        host: runner.env[loadEnvName('clockHost')] ?? '',
        ...(low === undefined || high === undefined ? {} : { offsetMs: { lo: low, hi: high } }),
      },
    },
  };
  const settled = gracefulStopMs(Math.ceil(context.roundTripMs)) + DELIVERY_MS;
  const overMs = startedAt === undefined ? 0 : checkpoint.writtenAt - startedAt - settled;
  return { summary, overMs };
};

/**
 * A runner's summary: the one k6 wrote, or else the one its last checkpoint holds, with `judgedUntil` (how far into the run
 * its phases are judged, and why no further). Undefined when there is neither.
 */
export const runnerSummary = (
  runner: CheckpointRunner & { readonly summaryFile: string; readonly checkpointFile?: string },
  index: number,
  exitCode: number,
  context: RunContext,
) => {
  try {
    const summary = JSON.parse(readFileSync(runner.summaryFile, 'utf8')) as LoadSummary;
    if (runner.checkpointFile) rmSync(runner.checkpointFile, { force: true });
    return { source: `runners/runner-${index + 1}.json`, summary, judgedUntil: undefined };
  } catch {
    const checkpoint =
      runner.checkpointFile === undefined ? undefined : readCheckpoint(runner.checkpointFile);
    if (checkpoint === undefined) return undefined;
    const { summary, overMs } = summaryFromCheckpoint(checkpoint, runner, context);
    const seconds = Math.round(overMs / 100) / 10;
    const reason = `k6 instance ${index + 1} ended (exit ${exitCode}) without its summary; its last checkpoint, ${seconds} s into the run, came`;
    return {
      source: `runners/runner-${index + 1}.checkpoint.json`,
      summary,
      judgedUntil: { reason, atMs: overMs },
    };
  }
};

/** Each phase's answers k6 has counted so far, admitted and 429, over every runner's last checkpoint. */
export const countsSoFar = (files: readonly string[], phases: readonly PhasePlan[]) => {
  const names = slotMetrics(phases);
  return () => {
    const shots = files.map(readCheckpoint).filter((shot) => shot !== undefined);
    if (shots.length === 0) return undefined;
    const count = (metric: string) => shots.reduce((n, shot) => n + (shot.metrics[metric]?.count ?? 0), 0);
    return new Map(
      phases.map((phase, i) => [
        phase.name,
        { admitted: count(names[i]!.admitted), limited: count(names[i]!.limited) },
      ]),
    );
  };
};
