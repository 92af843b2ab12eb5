// `harness load`: k6 probes of every limit, against a profile's target or the embedded reference server.
import { relative } from 'node:path';
import type { PhasePlan } from '../../core/plan.ts';
import { InputError, isHarnessError } from '../errors.ts';
import { EventStream, type Listener } from '../events/stream.ts';
import { countsSoFar } from '../k6-driver/checkpoint.ts';
import { findK6, k6Version } from '../k6-driver/k6.ts';
import { k6Network } from '../k6-driver/k6-network.ts';
import { type LoadEvent, scheduleEvents } from '../k6-driver/load-events.ts';
import { k6PlanFor } from '../k6-driver/plan.ts';
import { availableProbes } from '../k6-driver/probes.ts';
import { type FinishedLoad, runLoad } from '../k6-driver/run.ts';
import { plural } from '../plural.ts';
import { say, tty } from '../printable.ts';
import { loadProfile } from '../profile/read.ts';
import { EMBEDDED_SCALE, startReferenceServer } from '../reference/index.ts';
import { phaseAsRun } from '../report/junit.ts';
import {
  judgedRun,
  junitFile,
  type LoadReportRun,
  phaseCounts,
  writeLoadReports,
} from '../report/load-reports.ts';
import { reportsLine } from '../report/reports-line.ts';
import { loadMarkdown } from '../report/step-summary.ts';
import { UNREACHABLE, UNUSABLE, unreachableJUnit, unreachableMarkdown } from '../report/unreachable.ts';
import { loadTerminal } from '../terminal/load-progress.ts';
import { loadSummaryLines } from '../terminal/load-summary.ts';
import { harnessVersion } from '../version.ts';
import type { LoadOptions } from './commands.ts';
import { type ExitCode, exitCodeOf, exitWith, HARNESS_ERROR, NO_VERDICT, PASSED } from './exit-codes.ts';
import { inconclusiveAdvice } from './load-advice.ts';
import { k8sRequested, writeK8s } from './load-k8s.ts';
import type { LoadCommandResult } from './load-result.ts';
import { httpOptionsOf } from './network.ts';
import { embeddedNote, openRun, reportNoRun, type TargetSource, withTarget } from './prologue.ts';
import { lostReports, reportRun, type Saved } from './report-dir.ts';
import { endRun } from './run-end.ts';
import { whileInterruptible } from './signals.ts';

/** A signal before any phase had a result: every phase INCONCLUSIVE with the reason, in the report CI reads. */
/**
 * Reports for a run whose phases were never judged (a signal before k6 wrote its summary, or k6 dying without one):
 * each phase INCONCLUSIVE with why, so CI's JUnit says what happened rather than finding no file.
 */
const reportUnjudged = async (
  stream: LoadStream,
  phases: readonly PhasePlan[],
  reason: string,
  startedAt: number,
  options: Omit<LoadReportRun, 'phases'>,
  exitCode: ExitCode,
): Promise<LoadCommandResult> => {
  stream.events.emit({ type: 'note', text: `harness: ${reason}: no phase judged` });
  const run = {
    ...options,
    phases: phases.map((p) => phaseAsRun(p, { grade: 'INCONCLUSIVE', message: reason }, startedAt, 0)),
  };
  const saved = await stream.finish(run, []);
  if (saved.files.length > 0) say(tty`${reportsLine(saved.files)}`);
  say(tty`${phaseCounts(run.phases)}`);
  return {
    exitCode: exitCodeOf([exitCode, saved.exitCode]),
    dir: stream.dir,
    files: saved.files,
    phases: run.phases,
    ...lostReports(saved),
  };
};

/**
 * A load run's events, heard by `terminal` (its progress); `finish` tells it the run's end, then hands the finished run
 * to the reporters (the report files, an index linking them and k6's own files; the job summary) and returns what they
 * wrote.
 */
export const loadStream = (dir: string, terminal: Listener<LoadEvent>) => {
  const events = new EventStream<LoadEvent>([terminal]);
  const finish = async (run: LoadReportRun, alongside: readonly string[]): Promise<Saved> => {
    await events.finish({ type: 'run-finished' });
    return reportRun(
      () =>
        writeLoadReports(
          dir,
          run,
          alongside.map((file) => relative(dir, file)),
        ),
      loadMarkdown(run.label, run.phases, phaseCounts(run.phases)),
    );
  };
  return { dir, events, finish };
};
type LoadStream = ReturnType<typeof loadStream>;

/** Exit 3: the JUnit report CI publishes says why no phase ran, where the job would otherwise find no file. */
const reportUnreachable = async (
  dir: string,
  label: string,
  what: typeof UNREACHABLE | typeof UNUSABLE,
  reason: string,
): Promise<LoadCommandResult> => {
  const title = `harness load ${label}`;
  const noRun = await reportNoRun(dir, what, 'phase', reason, unreachableMarkdown(title, reason, 'phase'), {
    [junitFile(label)]: unreachableJUnit(title, reason, what),
  });
  return { ...noRun, dir };
};

/** What every load report says of the run beside its phases (JUnit properties), `harness load merge`'s included. */
export const loadReportProperties = (baseUrl: string, instances: number): Record<string, string> => ({
  'harness.version': harnessVersion(),
  'target.base_url': baseUrl,
  'k6.instances': String(instances),
});

/** `harness load` without touching process state, so `harness certify` can run it too. */
export const runLoadCommand = async (
  options: LoadOptions,
  stop?: AbortSignal,
): Promise<LoadCommandResult> => {
  if (k8sRequested(options)) return await writeK8s(options);
  if (
    options.profile &&
    (options.fault || options.ratelimitFields || Object.keys(options.limit).length > 0)
  ) {
    throw new InputError(
      '--fault, --limit and --ratelimit-fields apply to the embedded server only (no --profile)',
    );
  }
  const source: TargetSource = options.profile
    ? { profile: () => loadProfile(options.profile!) }
    : {
        embedded: () =>
          startReferenceServer({
            // Two-second minutes, so `--scenario all` takes seconds, not a quarter hour; tokens live their usual time.
            minuteMs: EMBEDDED_SCALE.minuteMs,
            limits: options.limit,
            ...(options.fault ? { fault: options.fault } : {}),
            ...(options.ratelimitFields ? { rateLimitFields: options.ratelimitFields } : {}),
          }),
      };
  return withTarget(source, options, async (prepared) => {
    const { profile, target, network, hide } = prepared;
    if (options.list) {
      for (const probe of availableProbes(target)) say(tty`${probe.name.padEnd(22)} ${probe.describes}`);
      return { exitCode: PASSED, files: [] };
    }
    const plan = {
      scenarios: options.scenario,
      ...(options.duration ? { durationMs: options.duration } : {}),
      ...(options.rate ? { rate: options.rate } : {}),
    };
    // The whole plan, pre-flight included, before any request: what the input gets wrong exits 2 here.
    const { totalMs, probes } = k6PlanFor(target, plan);
    const k6 = findK6();
    const { dir, unreachable } = await openRun(prepared, options.reportDir);
    const label = options.scenario.join('+');
    if (unreachable !== undefined) {
      return await reportUnreachable(
        dir,
        label,
        UNREACHABLE,
        hide(`${UNREACHABLE}, no phase run: ${unreachable}`),
      );
    }
    const stream = loadStream(dir, loadTerminal(process.stderr));
    const note = (line: string) => stream.events.emit({ type: 'note', text: hide(line) });
    const started = Date.now();
    note(
      `harness load: ${label} against ${profile.base_url}${embeddedNote(prepared)}, ` +
        `${plural(options.instances, 'k6 instance')}, about ${Math.ceil(totalMs / 1000)} s`,
    );
    const forK6 = k6Network(network);
    const reportOptions = () => ({
      label,
      runMs: Date.now() - started,
      properties: loadReportProperties(hide(profile.base_url), options.instances),
      strict: options.strict === true,
    });
    let finished: FinishedLoad;
    try {
      finished = await runLoad({
        k6,
        profile,
        plan,
        instances: options.instances,
        dir,
        label,
        onLine: note,
        onSchedule: (startAt, phases, checkpoints) =>
          // The rates show only on a terminal: elsewhere k6's checkpoints are not read while it runs.
          scheduleEvents(phases, startAt, stream.events, {
            ...(process.stderr.isTTY ? { counts: countsSoFar(checkpoints, phases) } : {}),
          }),
        network: forK6,
        http: httpOptionsOf(network),
        // Each runner's summary names them: a merged run is a record of what ran.
        versions: { harness: harnessVersion(), k6: k6Version(k6) },
        ...(stop ? { stop } : {}),
      });
    } catch (error) {
      if (isHarnessError(error, 'HARNESS_LOAD_INTERRUPTED')) {
        const phases = probes.flatMap((p) => p.phases);
        return await reportUnjudged(stream, phases, error.message, started, reportOptions(), NO_VERDICT);
      }
      // The pre-flight could not talk to the target or get a token or an id: no phase can run, and the fault is the
      // target's.
      if (isHarnessError(error, 'HARNESS_TARGET', 'HARNESS_TOKEN', 'HARNESS_PREFLIGHT')) {
        return await reportUnreachable(
          dir,
          label,
          UNUSABLE,
          hide(`${UNUSABLE}, no phase run: ${error.message}`),
        );
      }
      // k6 did not start, or ended without a summary (killed: the OOM killer, a SIGKILL): nothing to judge, and
      // what it measured is lost with it, but CI still gets reports saying so.
      const phases = probes.flatMap((p) => p.phases);
      const why = `${(error as Error).message}: what k6 measured went with it`;
      return await reportUnjudged(stream, phases, why, started, reportOptions(), HARNESS_ERROR);
    } finally {
      forK6.dispose();
    }
    const run = judgedRun(finished.judged, finished.startedAt, reportOptions());
    return await finishLoad(stream, run, finished);
  });
};

/** What k6 left of a run: its own files, and its exit codes (none when the summaries come from elsewhere). */
export interface K6Leftovers {
  readonly files: readonly string[];
  readonly exitCodes: readonly number[];
}

/**
 * A judged run's reports, what the terminal shows of it, and its exit code: `harness load` after k6, and any command
 * that judges summaries k6 wrote elsewhere (`harness load merge`).
 */
export const finishLoad = async (
  stream: LoadStream,
  run: LoadReportRun,
  k6: K6Leftovers,
): Promise<LoadCommandResult> => {
  const saved = await stream.finish(run, k6.files);
  // harness's own first: the index and the verdict page, then k6's dashboard and its runners' summaries.
  const files = [...new Set([...saved.files, ...k6.files])];
  for (const line of loadSummaryLines(run, files)) say(line);
  // k6 stopped by a signal exits non-zero by design.
  const k6Failed = !run.judged?.summary.interrupted && k6.exitCodes.some((code) => code !== 0);
  if (k6Failed) say(tty`k6 exited with ${k6.exitCodes.join(', ')}: see its output above`);
  const undecided = run.phases.filter((p) => p.grade === 'INCONCLUSIVE');
  const advice = inconclusiveAdvice(undecided.map((p) => p.message));
  const exitCode = endRun({
    noun: 'phases',
    graded: run.phases,
    strict: run.strict === true,
    // A k6 error makes every count doubtful, so it outranks a failed phase.
    faultBeside: k6Failed,
    // An INCONCLUSIVE phase (dropped iterations, a starved k6, a reading the evidence cannot prove) decided nothing.
    unverified: undecided.map((p) => p.name),
    saved,
    // Where harness fell short (a starved k6, say), the target was fine: the advice says what to change instead.
    ...(advice.length > 0
      ? { remedy: 'harness fell short, not the target: the advice below says what to change', advice }
      : {}),
  });
  return { exitCode, dir: stream.dir, files, phases: run.phases, ...lostReports(saved) };
};

export const load = async (options: LoadOptions): Promise<void> => {
  exitWith(await whileInterruptible(async (stop) => (await runLoadCommand(options, stop)).exitCode));
};
