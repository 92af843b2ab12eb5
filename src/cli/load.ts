// `harness load`: k6 probes of every limit, against a profile's target or the embedded reference server.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PhasePlan } from '../../load/lib/plan.ts';
import { TargetError, TokenError } from '../client/index.ts';
import { k6Network } from '../k6/k6-network.ts';
import { k6PlanFor } from '../k6/plan.ts';
import { PreflightError } from '../k6/preflight.ts';
import { availableProbes } from '../k6/probes.ts';
import { LoadInterrupted, type LoadOutcome, runLoad } from '../k6/run.ts';
import { loadProfile } from '../profile/load.ts';
import { profileRedactor, warnOfPlainTextSecrets } from '../profile/secrets.ts';
import { type FaultName, type RunningReferenceServer, startReferenceServer } from '../reference/index.ts';
import { type LoadJUnitOptions, phaseAsRun, toLoadJUnit } from '../report/load-junit.ts';
import { UNREACHABLE, UNUSABLE, unreachableJUnit, writeUnreachableReports } from '../report/unreachable.ts';
import { pointLatest } from '../report/write.ts';
import { resolveTarget } from '../runner/target.ts';
import type { BucketId, Limit } from '../spec/index.ts';
import { UsageError } from './errors.ts';
import { HARNESS_ERROR, NO_VERDICT, TARGET_UNREACHABLE } from './exit-codes.ts';
import { findK6, k6Version } from './k6.ts';
import { type K8sOptions, k8sRequested, writeK8s } from './load-k8s.ts';
import { startProgress } from './load-progress.ts';
import { writeLoadReports } from './load-reports.ts';
import {
  httpOptionsOf,
  type NetworkFlags,
  networkFor,
  unreachableOrigins,
  withNetworkFlags,
} from './network.ts';
import { reportDirFor } from './report-dir.ts';
import { whileInterruptible } from './signals.ts';
import { harnessVersion } from './version.ts';

export interface LoadOptions extends NetworkFlags, K8sOptions {
  profile?: string;
  scenario: string[];
  rate?: number;
  duration?: number;
  instances: number;
  reportDir: string;
  list?: boolean;
  strict?: boolean;
  fault?: FaultName;
  limit: Partial<Record<BucketId, Limit>>;
}

/** The embedded server's per-minute windows last 2 s, so `--scenario all` takes seconds, not a quarter hour. */
const EMBEDDED_MINUTE_MS = 2000;

export interface LoadCommandResult {
  readonly exitCode: number;
  /** The run's report directory and files; none when nothing ran (`--list`). */
  readonly dir?: string;
  readonly files: readonly string[];
}

/** A signal before any phase had a result: every phase INCONCLUSIVE with the reason, in the report CI reads. */
const reportInterrupted = async (
  dir: string,
  label: string,
  phases: readonly PhasePlan[],
  reason: string,
  startedAt: number,
  junitOptions: LoadJUnitOptions,
): Promise<LoadCommandResult> => {
  console.error(`harness: ${reason}: no phase judged`);
  const junit = join(dir, `load-${label}.xml`);
  writeFileSync(
    junit,
    toLoadJUnit(
      phases.map((p) => phaseAsRun(p, { grade: 'INCONCLUSIVE', message: reason }, startedAt, 0)),
      junitOptions,
    ),
  );
  await pointLatest(dir);
  console.log(`reports: ${junit}`);
  console.log(`summary: ${phases.length} phases: ${phases.length} INCONCLUSIVE`);
  return { exitCode: NO_VERDICT, dir, files: [junit] };
};

/** Exit 3: the JUnit report CI publishes says why no phase ran, where the job would otherwise find no file. */
const reportUnreachable = async (
  dir: string,
  label: string,
  what: typeof UNREACHABLE | typeof UNUSABLE,
  reason: string,
): Promise<LoadCommandResult> => {
  console.error(`harness: ${reason}`);
  const written = await writeUnreachableReports(dir, {
    [`load-${label}.xml`]: unreachableJUnit(`harness load ${label}`, reason, what),
  });
  if (written.latestNotMoved) console.error(`harness: ${written.latestNotMoved}`);
  console.log(`reports: ${written.files.join(', ')}`);
  console.log(`summary: ${what}: no phase run (exit ${TARGET_UNREACHABLE})`);
  return { exitCode: TARGET_UNREACHABLE, dir, files: written.files };
};

/** `harness load` without touching process state, so `harness certify` can run it too. */
export const runLoadCommand = async (
  options: LoadOptions,
  stop?: AbortSignal,
): Promise<LoadCommandResult> => {
  if (k8sRequested(options)) return await writeK8s(options);
  if (options.profile && (options.fault || Object.keys(options.limit).length > 0)) {
    throw new UsageError('--fault and --limit apply to the embedded server only (no --profile)');
  }
  let server: RunningReferenceServer | undefined;
  try {
    if (!options.profile) {
      server = await startReferenceServer({
        minuteMs: EMBEDDED_MINUTE_MS,
        limits: options.limit,
        ...(options.fault ? { fault: options.fault } : {}),
      });
    }
    const profile = withNetworkFlags(server ? server.profile() : loadProfile(options.profile!), options);
    const target = resolveTarget(profile);
    const redactor = profileRedactor(profile);
    const say = (line: string) => console.error(redactor.known(line));
    if (options.list) {
      for (const probe of availableProbes(target)) console.log(`${probe.name.padEnd(22)} ${probe.describes}`);
      return { exitCode: 0, files: [] };
    }
    const plan = {
      scenarios: options.scenario,
      ...(options.duration ? { durationMs: options.duration } : {}),
      ...(options.rate ? { rate: options.rate } : {}),
    };
    // The whole plan, pre-flight included, before any request: what the input gets wrong exits 2 here.
    const { totalMs, probes } = k6PlanFor(target, plan);
    const k6 = findK6();
    const dir = await reportDirFor(options.reportDir);
    const network = networkFor(profile, server !== undefined);
    const unreachable = await unreachableOrigins(profile, network);
    const label = options.scenario.join('+');
    if (unreachable.length > 0) {
      const reason = `${UNREACHABLE}, no phase run: ${unreachable.join('; ')}`;
      return await reportUnreachable(dir, label, UNREACHABLE, redactor.known(reason));
    }
    warnOfPlainTextSecrets(profile);
    const started = Date.now();
    say(
      `harness load: ${label} against ${profile.base_url}${server ? ' (embedded reference server)' : ''}, ` +
        `${options.instances} k6 instance${options.instances === 1 ? '' : 's'}, about ${Math.ceil(totalMs / 1000)} s`,
    );
    const forK6 = k6Network(network);
    const junitOptions = (): LoadJUnitOptions => ({
      runMs: Date.now() - started,
      properties: {
        'harness.version': harnessVersion(),
        'target.base_url': redactor.known(profile.base_url),
        'k6.instances': String(options.instances),
      },
      strict: options.strict === true,
    });
    let outcome: LoadOutcome;
    try {
      outcome = await runLoad({
        k6,
        profile,
        plan,
        instances: options.instances,
        dir,
        label,
        onLine: say,
        onSchedule: (startAt, phases) => startProgress(phases, startAt, process.stderr),
        network: forK6,
        http: httpOptionsOf(network),
        versions: { harness: harnessVersion(), k6: k6Version(k6) },
        ...(stop ? { stop } : {}),
      });
    } catch (error) {
      if (error instanceof LoadInterrupted) {
        const phases = probes.flatMap((p) => p.phases);
        return await reportInterrupted(dir, label, phases, error.message, started, junitOptions());
      }
      // The pre-flight could not talk to the target or get a token or an id: no phase can run, and the fault is the
      // target's.
      if (error instanceof TargetError || error instanceof TokenError || error instanceof PreflightError) {
        return await reportUnreachable(
          dir,
          label,
          UNUSABLE,
          redactor.known(`${UNUSABLE}, no phase run: ${error.message}`),
        );
      }
      // k6 did not start, or ended without a summary: there is nothing to judge.
      say(`harness: ${(error as Error).message}`);
      return { exitCode: HARNESS_ERROR, dir, files: [] };
    } finally {
      forK6.dispose();
    }
    const { exitCode, files } = await writeLoadReports({
      dir,
      label,
      summary: outcome.summary,
      startedAt: outcome.startedAt,
      junit: junitOptions(),
      exitCodes: outcome.exitCodes,
      files: outcome.files,
      say,
    });
    return { exitCode, dir, files };
  } finally {
    await server?.close();
  }
};

export const load = async (options: LoadOptions): Promise<void> => {
  process.exitCode = await whileInterruptible(async (stop) => (await runLoadCommand(options, stop)).exitCode);
};
