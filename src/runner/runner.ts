// A conformance run: a session for the target, a deadline and a signal that end it, the checks in their lanes'
// order (lane-order.ts, each run by run-check.ts), then the report (run-report.ts), returned to the command, which
// hands it to its reporters.
import type { HttpClientOptions } from '../client/index.ts';
import { type Clock, REAL_CLOCK } from '../clock.ts';
import { EventStream } from '../events/stream.ts';
import type { Target } from '../profile/target.ts';
import type { EndpointKey } from '../spec/index.ts';
import type { RequestBudget } from './budget.ts';
import { runInLaneOrder } from './lane-order.ts';
import { expectedRunMs, planOf, runDeadlineMs, type Selected, TOKENS_ITEM } from './plan.ts';
import { planChecks } from './plan-skips.ts';
import type { Ran } from './run-check.ts';
import { buildReport, type ReportOptions } from './run-report.ts';
import { Session } from './session.ts';
import type { ConformanceEvent, RunReport } from './types.ts';

export interface RunOptions extends ReportOptions {
  /** Where the run tells what it does: progress, report files, the job summary (none: a silent run). */
  readonly events?: EventStream<ConformanceEvent>;
  /** How to reach the target: TLS, proxy, request timeout (and a test's simulated network). */
  readonly http?: Pick<HttpClientOptions, 'tls' | 'proxy' | 'requestTimeoutMs' | 'transport'>;
  /** The run's time (the real clock unless given: a test's virtual one). */
  readonly clock?: Clock;
  /** --max-requests: nothing beyond it is sent, and checks that cannot have their share SKIP. */
  readonly budget?: RequestBudget;
  /** The whole run ends after this long (default: runDeadlineMs); checks still running are INCONCLUSIVE. */
  readonly deadlineMs?: number;
  /** What of the deadline was spent before the checks (the reachability check): the checks have the rest. */
  readonly spentMs?: number;
  /** Ends the run as the deadline does, its reason (`interrupted (SIGINT)`) in the verdicts: a signal. */
  readonly stop?: AbortSignal;
  /** --seed: where the probes' wait polls land in a window (a new one each run without it). */
  readonly seed?: number;
}

export const runConformance = async (
  target: Target,
  selected: readonly Selected[],
  options: RunOptions,
): Promise<RunReport> => {
  // What the profile leaves out SKIPs here, before the run, as --dry-run said it would.
  const selection = planChecks(selected, target);
  const events = options.events ?? new EventStream();
  const running = selection.filter((s) => s.excluded === undefined).map((s) => s.check);
  const deadlineMs = options.deadlineMs ?? runDeadlineMs(target, running, options.http?.requestTimeoutMs);
  const leftMs = Math.max(0, deadlineMs - (options.spentMs ?? 0));
  const clock = options.clock ?? REAL_CLOCK;
  const startedAt = new Date(clock.now());
  const session = new Session(target, {
    events,
    ...(options.http === undefined ? {} : { network: options.http }),
    ...(options.budget === undefined ? {} : { budget: options.budget }),
    ...(options.seed === undefined ? {} : { seed: options.seed }),
    ...(options.provenance.replayArguments === undefined
      ? {}
      : { replayArguments: options.provenance.replayArguments }),
    clock,
    deadlineAt: clock.now() + leftMs,
  });
  const plan = planOf(selection, target);
  options.budget?.setAsideForRun(plan.filter((item) => item.key === TOKENS_ITEM));
  for (const item of plan.filter((i) => i.probe)) {
    const endpoint = target.endpoint(item.endpoint as EndpointKey);
    if (target.mayCall(endpoint)) session.probed.add(endpoint.key);
  }
  session.emit({ type: 'run-started', checks: running.length, expectedMs: expectedRunMs(target, running) });
  const checksEnded = new AbortController();
  clock.sleep(leftMs, checksEnded.signal).then(
    () => {
      session.emit({
        type: 'note',
        text: `harness: the run deadline (${deadlineMs / 1000} s) passed: ending the checks still running`,
      });
      void session.end(`run deadline passed (${deadlineMs / 1000} s)`);
    },
    () => undefined,
  );
  const interrupt = () => void session.end(String(options.stop?.reason));
  if (options.stop?.aborted) interrupt();
  else options.stop?.addEventListener('abort', interrupt, { once: true });
  let ran: Ran[];
  try {
    ran = await runInLaneOrder(running, target, session);
  } finally {
    session.emit({ type: 'checks-ended' });
    checksEnded.abort();
    options.stop?.removeEventListener('abort', interrupt);
    await session.close();
  }
  const report = buildReport(ran, {
    target,
    selection,
    options,
    plan,
    startedAt,
    finishedAt: new Date(clock.now()),
    sent: Object.fromEntries(session.http.sent),
    seed: session.seed,
  });
  // Evidence was redacted when captured; the target, labels, reproductions and messages quote the profile. This is
  // the report's one pass: the events told while checks ran had theirs (Session.emit), for the terminal.
  const redacted = session.http.redactor.within(report) as RunReport;
  await events.finish({ type: 'run-finished' });
  return redacted;
};
