// `harness conformance`: resolve the target, run the selected checks, write the reports, print the summary last.
import { allChecks } from '../../conformance/index.ts';
import { harnessCommand } from '../command-line.ts';
import { InputError } from '../errors.ts';
import { EventStream } from '../events/stream.ts';
import { complain, say, terminalLines, tty } from '../printable.ts';
import { loadProfile, validateProfile } from '../profile/read.ts';
import { EMBEDDED_SCALE, startReferenceServer } from '../reference/index.ts';
import { toMarkdown } from '../report/markdown.ts';
import { judgeRun } from '../report/run-verdict.ts';
import { artifactsUrl } from '../report/step-summary.ts';
import { UNREACHABLE, unreachableJUnit, unreachableMarkdown } from '../report/unreachable.ts';
import { REPORT_FILES, type ReportFormat, type WriteOptions, writeReports } from '../report/write.ts';
import { loadBaseline } from '../runner/baseline.ts';
import { RequestBudget } from '../runner/budget.ts';
import { runDeadlineMs } from '../runner/plan.ts';
import { planChecks } from '../runner/plan-skips.ts';
import { runConformance } from '../runner/runner.ts';
import { selectChecks } from '../runner/select.ts';
import type { ConformanceEvent, RunReport } from '../runner/types.ts';
import { profileSchemaAsJson } from '../spec/export.ts';
import type { Profile } from '../spec/index.ts';
import { liveProgress } from '../terminal/live-progress.ts';
import { lineProgress } from '../terminal/progress.ts';
import { printPlan, printSummary } from '../terminal/summary.ts';
import { harnessVersion } from '../version.ts';
import type { ConformanceOptions } from './commands.ts';
import { conformanceEnd } from './conformance-end.ts';
import { type ExitCode, exitWith, PASSED } from './exit-codes.ts';
import { listChecks } from './list-checks.ts';
import { httpOptionsOf, originsOf } from './network.ts';
import { embeddedNote, openRun, reportNoRun, type TargetSource, withTarget } from './prologue.ts';
import { replayArgumentsOf } from './replay-arguments.ts';
import { lostReports, reportRun } from './report-dir.ts';
import { endRun } from './run-end.ts';
import { whileInterruptible } from './signals.ts';

/** Token lifetimes this short are waited out without --slow. */
const SHORT_LIFETIME_SECONDS = 30;

/** Flags build or override a profile; client credentials come only from the environment, never from flags. */
const profileFrom = (options: ConformanceOptions, env: NodeJS.ProcessEnv): Profile => {
  const base: Record<string, unknown> = options.profile ? { ...loadProfile(options.profile, env) } : {};
  if (!options.profile) {
    const { CLIENT_ID, CLIENT_SECRET } = env;
    if (!CLIENT_ID || !CLIENT_SECRET) {
      throw new InputError(
        '--base-url without --profile needs CLIENT_ID and CLIENT_SECRET in the environment',
      );
    }
    base.clients = { primary: { client_id: CLIENT_ID, client_secret: CLIENT_SECRET } };
  }
  if (options.baseUrl) base.base_url = options.baseUrl;
  if (options.authUrl) base.auth_url = options.authUrl;
  if (options.tenant) base.tenant = options.tenant;
  if (options.sideEffects) base.side_effects = options.sideEffects;
  return validateProfile(base, options.profile ?? 'flags (--base-url, --auth-url, --tenant, --side-effects)');
};

/** The budget the run draws from, the reachability check's requests already spent. */
const budgetFor = (maxRequests: number | undefined, profile: Profile): RequestBudget | undefined => {
  if (maxRequests === undefined) return undefined;
  const reachability = originsOf(profile).length;
  if (maxRequests <= reachability) {
    throw new InputError(
      `--max-requests ${maxRequests}: the reachability check alone sends ${reachability}, one per origin`,
    );
  }
  return new RequestBudget(maxRequests, reachability);
};

/**
 * Exit 3 in the formats asked for that a CI page shows (Markdown, JUnit): the job summary and test report say why
 * no check ran, where they would otherwise miss a file.
 */
const reportUnreachable = (
  dir: string,
  reason: string,
  formats: readonly ReportFormat[],
  options: WriteOptions,
) => {
  const title = 'harness conformance';
  return reportNoRun(
    dir,
    UNREACHABLE,
    'check',
    reason,
    unreachableMarkdown(title, reason),
    {
      ...(formats.includes('markdown')
        ? { [REPORT_FILES.markdown]: unreachableMarkdown(title, reason) }
        : {}),
      ...(formats.includes('junit') ? { [REPORT_FILES.junit]: unreachableJUnit(title, reason) } : {}),
    },
    options,
  );
};

export interface ConformanceCommandResult {
  readonly exitCode: ExitCode;
  /** The run and where its reports went; no run for --dry-run or an unreachable target. */
  readonly report?: RunReport;
  readonly dir?: string;
  /** The reports could not be written (exit 6, or 1 with a FAIL): the run's verdicts went to stdout only. */
  readonly reportsNotWritten?: true;
}

/** `harness conformance` without touching process state, so `harness certify` can run it too. */
/** Which command runs the checks: its name heads the progress, and what chose the checks is named for certifying. */
export interface RunAs {
  readonly command: string;
  readonly chosenBy?: string;
  /** False for a replay: `latest` keeps naming the run replayed. */
  readonly latest?: boolean;
}

export const runConformanceCommand = async (
  options: ConformanceOptions,
  stop?: AbortSignal,
  as: RunAs = { command: 'harness conformance' },
): Promise<ConformanceCommandResult> => {
  const targeted = options.profile !== undefined || options.baseUrl !== undefined;
  if (targeted && options.fault)
    throw new InputError('--fault applies to the embedded server only (no --profile)');
  if (!targeted && options.sideEffects)
    throw new InputError('--side-effects applies to a target (--profile or --base-url)');
  if (targeted && options.tokens === 'jwt')
    throw new InputError('--tokens applies to the embedded server only (no --profile)');
  if (targeted && options.ratelimitFields)
    throw new InputError('--ratelimit-fields applies to the embedded server only (no --profile)');
  const source: TargetSource = targeted
    ? { profile: () => profileFrom(options, process.env) }
    : {
        embedded: () =>
          startReferenceServer({
            ...EMBEDDED_SCALE,
            ...(options.fault ? { fault: options.fault } : {}),
            ...(options.tokens ? { tokens: options.tokens } : {}),
            ...(options.ratelimitFields ? { rateLimitFields: options.ratelimitFields } : {}),
          }),
      };
  return withTarget(source, options, async (prepared) => {
    const { profile, target, network, hide } = prepared;
    const selection = planChecks(
      selectChecks(allChecks(target), {
        ...(options.only ? { only: options.only } : {}),
        ...(options.skip ? { skip: options.skip } : {}),
        slow: options.slow === true || target.tokenLifetimeSeconds <= SHORT_LIFETIME_SECONDS,
      }),
      target,
    );
    const budget = budgetFor(options.maxRequests, profile);
    // The whole run's deadline: the reachability check draws from it too, so the process ends by it.
    const running = selection.filter((s) => s.excluded === undefined).map((s) => s.check);
    const deadlineMs =
      options.deadline ?? runDeadlineMs(target, running, httpOptionsOf(network).requestTimeoutMs);
    if (options.dryRun) {
      printPlan(selection, target, {
        ...(options.maxRequests ? { maxRequests: options.maxRequests } : {}),
        deadlineMs,
        hide,
      });
      return { exitCode: PASSED };
    }
    const baseline = options.baseline ? loadBaseline(options.baseline) : undefined;
    const startedAt = performance.now();
    const { dir, unreachable } = await openRun(prepared, options.reportDir, deadlineMs);
    // Exit 3 before any check when the target does not answer: a verdict per check would only repeat it.
    if (unreachable !== undefined) {
      const { exitCode } = await reportUnreachable(
        dir,
        hide(`${UNREACHABLE}, no check run: ${unreachable}`),
        options.format,
        { latest: as.latest !== false },
      );
      return { exitCode, dir };
    }
    // On a terminal, one live line; in a CI log, a line per event (lineProgress wraps the stream in terminalSink).
    const progress = process.stderr.isTTY
      ? liveProgress(process.stderr)
      : lineProgress((escaped) => console.error(escaped));
    // Events are the live progress only: the reporters take the finished run below, once runConformance returns it.
    const events = new EventStream<ConformanceEvent>([progress]);
    events.emit({
      type: 'note',
      text: hide(`${as.command}: ${profile.base_url}${embeddedNote(prepared)}`),
    });
    const report = await runConformance(target, selection, {
      events,
      provenance: {
        version: harnessVersion(),
        command: harnessCommand(process.argv.slice(2)),
        replayArguments: replayArgumentsOf(options),
        replayOnly: prepared.embedded,
        ...(as.chosenBy ? { chosenBy: as.chosenBy } : {}),
      },
      http: httpOptionsOf(network),
      ...(budget ? { budget } : {}),
      deadlineMs,
      spentMs: performance.now() - startedAt,
      ...(options.seed ? { seed: options.seed } : {}),
      ...(stop ? { stop } : {}),
      gate: {
        strict: options.strict === true,
        requireCertifiable: options.requireCertifiable === true,
        ...(baseline ? { baseline: Object.fromEntries(baseline) } : {}),
      },
    });
    // A signal or the deadline ends the checks, not the run: their report still comes back here and is written.
    const saved = await reportRun(
      () =>
        writeReports(report, {
          dir,
          formats: options.format,
          strict: options.strict === true,
          latest: as.latest !== false,
        }),
      toMarkdown(report, { artifacts: artifactsUrl() }),
    );
    if (budget) complain(tty`harness: --max-requests ${budget.limit}: ${budget.sent} requests sent`);
    printSummary(report, saved.files, judgeRun(report).differences, {
      everyCheck: selection.some((s) => s.deselected),
    });
    const exitCode = endRun(conformanceEnd(report, saved));
    return { exitCode, report, dir, ...lostReports(saved) };
  });
};

export const conformance = async (options: ConformanceOptions): Promise<void> => {
  if (options.json && !options.list) throw new InputError('--json applies to --list only');
  if (options.list) return listChecks(options.json === true);
  if (options.printProfileSchema) return say(terminalLines(profileSchemaAsJson().trimEnd()));
  exitWith(await whileInterruptible(async (stop) => (await runConformanceCommand(options, stop)).exitCode));
};
