// Runs load/probe.ts in one or more local k6 processes (execution segments split one schedule between them) and
// merges what they write into one summary. Before k6 starts, a pre-flight times a few requests (the VUs are sized
// from that round trip) and fetches tokens and path ids once. Secrets and tokens reach k6 only through its
// environment, never its arguments. Programs (the accuracy benchmark) call runLoad() directly.

import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { constants, hostname } from 'node:os';
import { join, resolve } from 'node:path';
import { type LoadSummary, mergeSummaries } from '../../core/evidence.ts';
import { type JudgedSummary, judge } from '../../core/judged.ts';
import { encodeLoadEnv } from '../../core/load-env.ts';
import type { PhasePlan } from '../../core/plan.ts';
import { vusFor } from '../../core/schedule.ts';
import { CAPPED_READER, TOKEN_READER_ENV } from '../../core/token-reader.ts';
import type { PhaseVerdict } from '../../core/verdict.ts';
import { spawnGroup } from '../child-group.ts';
import type { HttpClientOptions } from '../client/index.ts';
import { HarnessError } from '../errors.ts';
import { plural } from '../plural.ts';
import { profileRedactor } from '../profile/secrets.ts';
import { resolveTarget } from '../profile/target.ts';
import type { Profile } from '../spec/index.ts';
import { checkpointFile, outputArgs, runnerSummary } from './checkpoint.ts';
import { dashboardEnv, dashboardUrl, liveDashboard } from './dashboard.ts';
import { hasTokenModule } from './k6.ts';
import { k6PlanFor, type PlanOptions } from './plan.ts';
import { runPreflight } from './preflight.ts';

export const SCRIPT = resolve(import.meta.dirname, '../../load/probe.ts');

export interface LoadRun {
  readonly k6: string;
  readonly profile: Profile;
  readonly plan: PlanOptions;
  readonly instances: number;
  /** Where the reports go; files are named after `label` (the scenario, or `all`). */
  readonly dir: string;
  readonly label: string;
  readonly onLine?: (line: string) => void;
  /** Proxy and TLS settings for k6 (see k6-network.ts). */
  readonly network?: {
    readonly env: Readonly<Record<string, string>>;
    readonly args: readonly string[];
    /** Where its files are: removed by the k6 process's watchdog should harness be killed. */
    readonly dir?: string;
  };
  /** The same settings for harness's own requests before k6 starts (the pre-flight); k6 takes their timeout. */
  readonly http?: HttpClientOptions;
  /** A signal: k6 stops (SIGTERM, which makes it write its summary), and unfinished phases are not judged. */
  readonly stop?: AbortSignal;
  /**
   * Told the common start, the phases and where k6's checkpoints go (none with a stock k6) once they are known; its
   * progress stops when k6 exits or a signal comes.
   */
  readonly onSchedule?: (
    startAt: number,
    phases: readonly PhasePlan[],
    checkpoints: readonly string[],
  ) => { stop(): void };
  /** What each runner's summary records as HARNESS_VERSION and HARNESS_K6_VERSION ('unknown' without). */
  readonly versions?: { readonly harness: string; readonly k6: string };
}

/** Each runner's summary, kept beside the merged reports as `runners/runner-<i>.json` (i from 1). */
export const runnerFile = (dir: string, index: number) => join(dir, 'runners', `runner-${index + 1}.json`);

/** Stopped before k6 ran, or before it wrote a summary: no phase has a result. */
export class LoadInterrupted extends HarnessError {
  override readonly name = 'LoadInterrupted';
  constructor(message: string) {
    super('HARNESS_LOAD_INTERRUPTED', message);
  }
}

/** A phase's row in a finished load run: its grade and reason, and what it measured. */
export interface FinishedPhase {
  readonly phase: string;
  readonly grade: PhaseVerdict['grade'];
  readonly message: string;
  readonly limit: number;
  readonly enforcedPerWindow: number | undefined;
  readonly errorPercent: number | undefined;
  readonly dropped: number;
}

/** A load run k6 finished: judged once, with the files and exit codes its instances left. */
export interface FinishedLoad {
  /** The merged summary, judged once: every report and line of the run shows these verdicts. */
  readonly judged: JudgedSummary;
  /** Per phase, in plan order: the grade and the measured error (enforced against expected), read from `judged`. */
  readonly phases: readonly FinishedPhase[];
  readonly roundTripMs: number;
  /** The common moment (epoch ms) the k6 instances started at: each phase's startMs counts from it. */
  readonly startedAt: number;
  readonly files: readonly string[];
  /** k6 exit codes per instance (0 unless k6 itself failed: harness's thresholds never fail). */
  readonly exitCodes: readonly number[];
}

/** `0:1/2`, `1/2:1`: k6's fractions for instance i of n. */
export const segments = (instances: number) => {
  const at = (i: number) => (i === 0 ? '0' : i === instances ? '1' : `${i}/${instances}`);
  const sequence = Array.from({ length: instances + 1 }, (_, i) => at(i)).join(',');
  return Array.from({ length: instances }, (_, i) => ({ segment: `${at(i)}:${at(i + 1)}`, sequence }));
};

/** The profile k6 may see (HARNESS_TARGET) and its client secrets by role (HARNESS_SECRETS), kept apart. */
export const splitProfile = (profile: Profile) => {
  const secrets: Record<string, string> = {};
  const clients: Record<string, unknown> = {};
  for (const [role, client] of Object.entries(profile.clients)) {
    const { client_secret, ...rest } = client;
    secrets[role] = client_secret;
    clients[role] = rest;
  }
  return { target: { ...profile, clients }, secrets };
};

/** Time for k6 to start and initialise its VUs before the common start: a second, and a few ms per VU. */
const leadMs = (vus: number) => 3000 + 4 * vus;

/** This machine's clock, which all local instances share: the kernel's boot id (one per clock), else the host name. */
const clockHost = (): string => {
  try {
    return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
  } catch {
    return hostname();
  }
};

/**
 * k6 logs a line per failed request (`level=warning msg="Request Failed" error="...: request timeout"`), thousands
 * of them against a failing target. Each kind of line (the same but for its numbers) is passed on once, and how
 * many more of it came is said in one line when k6 exits.
 */
const foldingRepeats = (onLine: (line: string) => void) => {
  const kinds = new Map<string, { first: string; more: number }>();
  return {
    line: (line: string) => {
      const kind = line.replace(/\d+/g, '#');
      const seen = kinds.get(kind);
      if (seen !== undefined) seen.more++;
      else {
        kinds.set(kind, { first: line, more: 0 });
        onLine(line);
      }
    },
    end: () => {
      for (const { first, more } of kinds.values())
        if (more > 0) onLine(`${plural(more, 'more line')} like: ${first}`);
    },
  };
};

const runInstance = (run: LoadRun, index: number, env: NodeJS.ProcessEnv, args: string[]): Promise<number> =>
  new Promise((done, fail) => {
    const child = spawnGroup(run.k6, ['run', '--quiet', ...args, SCRIPT], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(run.stop ? { stop: run.stop } : {}),
      ...(run.network?.dir ? { leaves: [run.network.dir] } : {}),
    });
    const prefix = run.instances > 1 ? `[k6 ${index + 1}/${run.instances}] ` : '[k6] ';
    const output = foldingRepeats((line) => run.onLine?.(`${prefix}${line}`));
    for (const stream of [child.stdout, child.stderr]) {
      let pending = '';
      stream?.on('data', (chunk: Buffer) => {
        const lines = (pending + chunk.toString()).split('\n');
        pending = lines.pop() ?? '';
        for (const line of lines) if (line.trim() !== '') output.line(line);
      });
    }
    child.once('error', fail);
    child.once('close', (code, signal) => {
      output.end();
      // As a shell shows it: 137 for the OOM killer's SIGKILL.
      done(code ?? 128 + (signal ? constants.signals[signal] : 0));
    });
  });

/** One k6 process of a run: its environment, its arguments (the segment) and where its summary goes. */
export interface PreparedRunner {
  readonly env: NodeJS.ProcessEnv;
  readonly args: readonly string[];
  readonly summaryFile: string;
  /** Where its harness-checkpoint output writes, when the k6 has one (hasCheckpoint). */
  readonly checkpointFile?: string;
  readonly segment: string;
  readonly sequence: string;
}

/**
 * Everything up to starting k6: the plan, the pre-flight, the common start and every runner's command. Programs that
 * start the runners themselves (as the k6-operator would) use it too.
 */
export const prepareRunners = async (run: LoadRun) => {
  const { target, secrets } = splitProfile(run.profile);
  const plan = k6PlanFor(resolveTarget(run.profile), run.plan);
  const phases = plan.probes.flatMap((p) => p.phases);
  const interrupted = () => {
    if (run.stop?.aborted) throw new LoadInterrupted(`${run.stop.reason} before k6 started`);
  };
  interrupted();
  const preflight = await runPreflight(run.profile, plan, run.http);
  interrupted();
  const vus = phases.reduce((n, p) => n + vusFor(p, preflight.roundTripMs, run.instances).preAllocatedVUs, 0);
  const startAt = Date.now() + leadMs(Math.ceil(vus / run.instances));
  mkdirSync(join(run.dir, 'runners'), { recursive: true });
  // One id for every runner of this run: the merge tells another run's summary by it.
  const runId = randomUUID();
  // What the summaries call the target: the URL with the profile's secrets hidden (it may come from ${VAR}).
  const targetName = profileRedactor(run.profile).known(run.profile.base_url);
  const runners = segments(run.instances).map(({ segment, sequence }, i): PreparedRunner => {
    const summaryFile = runnerFile(run.dir, i);
    const dashboard = join(run.dir, `load-${run.label}${run.instances === 1 ? '' : `.${i + 1}`}.html`);
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      ...encodeLoadEnv({
        target,
        targetName,
        secrets,
        tokens: preflight.tokens,
        ids: preflight.ids,
        roundTripMs: Math.ceil(preflight.roundTripMs),
        startAt,
        plan,
        instances: run.instances,
        instance: i,
        requestTimeoutMs: run.http?.requestTimeoutMs,
        runId,
        version: run.versions?.harness ?? 'unknown',
        k6Version: run.versions?.k6 ?? 'unknown',
        clockHost: clockHost(),
        summaryJson: summaryFile,
        summaryStdout: 'none',
      }),
      // Nothing leaves the machine: no extension lookup, no usage report.
      K6_AUTO_EXTENSION_RESOLUTION: 'false',
      ...(hasTokenModule(run.k6) ? { [TOKEN_READER_ENV]: CAPPED_READER } : {}),
      K6_NO_USAGE_REPORT: 'true',
      ...dashboardEnv(process.env, dashboard, i),
      ...run.network?.env,
    };
    const checkpoint = checkpointFile(run.dir, i);
    const outputs = outputArgs(run.k6, checkpoint);
    const args = [
      ...(run.network?.args ?? []),
      ...outputs,
      ...(run.instances === 1
        ? []
        : ['--execution-segment', segment, '--execution-segment-sequence', sequence]),
    ];
    // What k6 itself reports without segment flags (load/lib/summary.ts), so a checkpoint's runner matches it.
    const said = run.instances === 1 ? { segment: '0:1', sequence: '' } : { segment, sequence };
    return { env, args, summaryFile, ...said, ...(outputs.length > 0 ? { checkpointFile: checkpoint } : {}) };
  });
  const dashboards = runners.map((r) => r.env.K6_WEB_DASHBOARD_EXPORT!);
  return { plan, phases, preflight, startAt, runId, runners, dashboards, targetName };
};

export const runLoad = async (run: LoadRun): Promise<FinishedLoad> => {
  const { plan, phases, preflight, startAt, runId, runners, dashboards, targetName } =
    await prepareRunners(run);
  let stoppedAt: LoadSummary['interrupted'];
  const checkpoints = runners.flatMap((r) => (r.checkpointFile === undefined ? [] : [r.checkpointFile]));
  const progress = run.onSchedule?.(startAt, phases, checkpoints);
  run.stop?.addEventListener(
    'abort',
    () => {
      progress?.stop();
      stoppedAt = { reason: String(run.stop?.reason), atMs: Date.now() - startAt };
    },
    { once: true },
  );
  const exitCodes = await Promise.all(
    runners.map(({ env, args }, i) => {
      if (liveDashboard(process.env)) run.onLine?.(`k6 dashboard: ${dashboardUrl(process.env, i)}`);
      return runInstance(run, i, env, [...args]);
    }),
  ).finally(() => progress?.stop());
  const shared = { plan, instances: run.instances, targetName, startAt, runId, versions: run.versions };
  const summaries = runners.map((runner, i) => {
    const read = runnerSummary(runner, i, exitCodes[i]!, { ...shared, roundTripMs: preflight.roundTripMs });
    if (read === undefined) {
      const why = `k6 instance ${i + 1} exited with ${exitCodes[i]} and wrote no summary (${runner.summaryFile})`;
      throw run.stop?.aborted ? new LoadInterrupted(`${run.stop.reason}: ${why}`) : new Error(why);
    }
    // A checkpoint judges only the phases over by then, as a signal does.
    if (read.judgedUntil !== undefined && (stoppedAt === undefined || read.judgedUntil.atMs < stoppedAt.atMs))
      stoppedAt = read.judgedUntil;
    return read;
  });
  // One runner or several, the same checks: a runner whose setup() failed leaves no phase judged.
  const merged = mergeSummaries(summaries);
  const summary = stoppedAt === undefined ? merged : { ...merged, interrupted: stoppedAt };
  const judged = judge(summary);
  return {
    judged,
    phases: judged.phases.map(({ result, verdict }) => ({
      phase: result.plan.name,
      grade: verdict.grade,
      message: verdict.message,
      limit: result.plan.limit.count,
      enforcedPerWindow: verdict.enforcedPerWindow,
      errorPercent: verdict.errorPercent,
      dropped: result.dropped,
    })),
    roundTripMs: preflight.roundTripMs,
    startedAt: startAt,
    files: [
      ...dashboards.filter((file) => existsSync(file)),
      ...summaries.map((s) => join(run.dir, s.source)),
    ],
    exitCodes,
  };
};
