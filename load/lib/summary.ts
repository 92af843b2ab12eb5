// handleSummary's side: k6's end-of-test data turned into harness's LoadSummary, plus the text k6 prints.

import { sha256 } from 'k6/crypto';
import exec from 'k6/execution';
import type { LoadSummary } from '../../core/evidence.ts';
import { byGrade, type JudgedSummary, phaseLine } from '../../core/judged.ts';
import { type MetricValues, phaseResults } from '../../core/phase-results.ts';
import type { ProbePlanSet } from '../../core/plan.ts';
import type { RunnerIdentity } from '../../core/runners.ts';
import { plan as k6Plan, prefetchedIds, runnerOf, startAt, targetName } from './config.ts';

interface SummaryData {
  readonly metrics: Readonly<Record<string, { values: MetricValues } | undefined>>;
  readonly setup_data?: { lateMs?: number; tokenRequests?: number; k6Version?: string };
}

/**
 * Who this runner is, read from k6 itself where it can be: under the k6-operator every pod gets the same environment,
 * and only its command line's execution segment tells them apart.
 */
const runnerIdentity = (data: SummaryData): RunnerIdentity => {
  const low = data.metrics.harness_clock_low?.values.max;
  const high = data.metrics.harness_clock_high?.values.min;
  const options = exec.test.options as {
    executionSegment?: string | null;
    executionSegmentSequence?: string | null;
  };
  return {
    runId: runnerOf.runId,
    planDigest: sha256(runnerOf.planText, 'hex'),
    segment: options.executionSegment ?? '0:1',
    sequence: options.executionSegmentSequence ?? '',
    startAt,
    // setup() returns its data only when it completes; a timeout or a throw leaves none.
    setupCompleted: data.setup_data !== undefined,
    harnessVersion: runnerOf.harnessVersion,
    k6Version:
      runnerOf.k6Version === 'unknown' ? (data.setup_data?.k6Version ?? 'unknown') : runnerOf.k6Version,
    clock: {
      host: runnerOf.clockHost,
      ...(low === undefined || high === undefined ? {} : { offsetMs: { lo: low, hi: high } }),
    },
  };
};

export const loadSummary = (data: SummaryData, instances: number, plan: ProbePlanSet): LoadSummary => {
  const phases = plan.probes.flatMap((p) => p.phases);
  const results = phaseResults((name) => data.metrics[name]?.values ?? {}, phases);
  // Without the CLI's pre-flight, every instance fetched the path ids itself.
  const perRun = k6Plan.preflight.requestsPerLimiter;
  const copies = prefetchedIds ? 1 : instances;
  const setupTokenRequests = data.setup_data?.tokenRequests ?? 0;
  return {
    target: targetName,
    generatedAt: new Date().toISOString(),
    instances,
    lateMs: [data.setup_data?.lateMs ?? 0],
    preflightRequests: Object.fromEntries(Object.entries(perRun).map(([k, v]) => [k, v * copies])),
    ...(setupTokenRequests > 0 ? { setupTokenRequests } : {}),
    phases: results,
    runner: runnerIdentity(data),
  };
};

/** An instance's share of several, a line per phase: verdicts need every share, so harness judges the merged run. */
export const shareText = (summary: LoadSummary): string =>
  `${summary.phases
    .map(
      (p) =>
        `share  ${p.plan.name.padEnd(34)} admitted ${p.admitted}, 429 ${p.limited} (harness merges the instances)`,
    )
    .join('\n')}\n`;

/** A runner alone: one line per phase, failures first. */
export const summaryText = (judged: JudgedSummary): string =>
  `${byGrade(judged)
    .map(({ result, verdict }) => phaseLine(verdict.grade, result.plan.name, verdict.message))
    .join('\n')}\n`;
