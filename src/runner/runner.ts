// Runs the selected checks: "before" lane first (needs untouched buckets), then every other lane concurrently (one
// lane per rate-limit bucket, so no check spends another's budget mid-measurement), then the "after" lane; the
// "alongside" lane (the token-expiry check, which mostly waits) runs beside all of them from the start.
import { createHash } from 'node:crypto';
import { type HttpClientOptions, TargetError, TokenError } from '../client/index.ts';
import { EventStream } from '../events/stream.ts';
import { profileRedactor } from '../profile/secrets.ts';
import { BUCKETS, type BucketId, type EndpointKey, type Profile, sectionOf } from '../spec/index.ts';
import { clock } from './bucket-log.ts';
import { BudgetExhausted, type RequestBudget } from './budget.ts';
import { CheckContext } from './context.ts';
import { GRADES, type Grade, inconclusive, Outcome } from './grades.ts';
import { expectedRunMs, plannedFor, planOf, runDeadlineMs, type Selected, TOKENS_ITEM } from './plan.ts';
import { replayCommand, reproFor } from './repro.ts';
import { noTokenReason, Session } from './session.ts';
import type { Target } from './target.ts';
import type { CheckDefinition, CheckResult, ConformanceEvent, Lane, RunReport } from './types.ts';

export interface RunOptions {
  /** Where the run tells what it does: progress, report files, the job summary (none: a silent run). */
  readonly events?: EventStream<ConformanceEvent>;
  readonly version: string;
  readonly command: string;
  /** How to reach the target: TLS, proxy, request timeout. */
  readonly http?: Pick<HttpClientOptions, 'tls' | 'proxy' | 'requestTimeoutMs'>;
  /** --max-requests: nothing beyond it is sent, and checks that cannot have their share SKIP. */
  readonly budget?: RequestBudget;
  /** The whole run ends after this long (default: runDeadlineMs); checks still running are INCONCLUSIVE. */
  readonly deadlineMs?: number;
  /** Ends the run as the deadline does, its reason (`interrupted (SIGINT)`) in the verdicts: a signal. */
  readonly stop?: AbortSignal;
  /** How `harness replay` reaches this target again (--profile and the like), for the probes' reproductions. */
  readonly replayArguments?: readonly string[];
  /**
   * The target ends with the run (the embedded reference server): a curl to its port finds nothing afterwards, so
   * every check's reproduction is `harness replay` alone, which starts that server again.
   */
  readonly replayOnly?: boolean;
  /** What chose the checks, for the reasons a run cannot certify: `--only/--skip` unless said (`harness replay`). */
  readonly chosenBy?: string;
}

/** How a check ended; `byChoice` marks a SKIP the user chose (see skipByChoice), which leaves no rule unverified. */
interface Verdict {
  readonly grade: Grade;
  readonly message: string;
  readonly byChoice?: boolean;
}

const outcomeOf = (error: unknown, ctx: CheckContext, check: CheckDefinition): Verdict => {
  if (error instanceof Outcome)
    return { grade: error.grade, message: error.message, byChoice: error.byChoice };
  // --max-requests is the user's cap: a check that does not fit in it is left out by choice.
  if (error instanceof BudgetExhausted) return { grade: 'SKIP', message: error.message, byChoice: true };
  if (error instanceof TokenError) {
    ctx.record(error.evidence);
    return { grade: 'SKIP', message: noTokenReason(error) };
  }
  if (error instanceof TargetError) {
    ctx.record(error.evidence);
    const message = `the target failed to answer (${error.kind}): ${error.message}`;
    // A check that only warns or informs cannot fail the run on a request SPEC.md does not require to work.
    return check.failsWith.includes('FAIL') ? { grade: 'FAIL', message } : { grade: 'INCONCLUSIVE', message };
  }
  // A fault in harness itself is no verdict on the target: ERROR, which exits 4. Its message can quote a secret.
  return { grade: 'ERROR', message: `harness error: ${ctx.session.http.redactor.text(describeBug(error))}` };
};

/** The error and where it was thrown, on one line, so a bug report can start from the message. */
const describeBug = (error: unknown): string => {
  if (!(error instanceof Error)) return String(error);
  const at = error.stack?.split('\n').find((line) => line.trimStart().startsWith('at '));
  return `${error.name}: ${error.message}${at ? ` (${at.trim()})` : ''}`;
};

/** A check that grades what its failsWith does not declare has a bug, and escaped the coverage test with it. */
const undeclared = (check: CheckDefinition, grade: Grade): boolean =>
  (grade === 'FAIL' || grade === 'WARN') && !check.failsWith.includes(grade);
/** Settles as INCONCLUSIVE when the run ends first; the check itself is abandoned (it can send nothing more). */
const untilRunEnds = <T>(running: Promise<T>, ended: AbortSignal): Promise<T> =>
  new Promise<T>((resolve, reject) => {
    const end = () => reject(new Outcome('INCONCLUSIVE', `${ended.reason} while this check ran`));
    if (ended.aborted) return end();
    ended.addEventListener('abort', end, { once: true });
    running.then(resolve, reject).finally(() => ended.removeEventListener('abort', end));
  });

/** A check's result, and whether the user chose that it not run (never part of the report's check entry). */
interface Ran {
  readonly result: CheckResult;
  readonly byChoice: boolean;
}

const runCheck = async (check: CheckDefinition, session: Session): Promise<Ran> => {
  const ctx = new CheckContext(check.id, session);
  const startedAt = new Date().toISOString();
  const started = performance.now();
  session.emit({ type: 'check-started', id: check.id });
  let verdict: Verdict;
  try {
    if (session.ended.aborted) inconclusive(`${session.ended.reason}: not started`);
    const run = () => check.run(ctx);
    const { budget } = session.http;
    const items = plannedFor(check, session.target);
    verdict = {
      grade: 'PASS',
      message: await untilRunEnds(budget ? budget.within(items, run) : run(), session.ended),
    };
  } catch (error) {
    verdict = outcomeOf(error, ctx, check);
    if (error instanceof Outcome && undeclared(check, verdict.grade)) {
      verdict = {
        grade: 'ERROR',
        message: `harness error: ${check.id} graded ${verdict.grade}, which its failsWith does not list: ${verdict.message}`,
      };
    }
  }
  const durationMs = performance.now() - started;
  const { grade, message } = verdict;
  session.emit({ type: 'check-finished', id: check.id, grade, message, durationMs });
  return {
    result: {
      ...describe(check),
      grade: verdict.grade,
      message: verdict.message,
      startedAt,
      durationMs,
      evidence: ctx.evidence,
      repro: ctx.repro ?? reproFor(ctx.evidence, session.target.profile),
      ...(ctx.timeline === undefined ? {} : { timeline: ctx.timeline }),
    },
    byChoice: verdict.byChoice === true,
  };
};

const describe = (check: CheckDefinition) => ({
  id: check.id,
  title: check.title,
  clause: check.clause,
  section: sectionOf(check.clause),
  quote: check.quote,
  ...(check.convention === undefined ? {} : { convention: check.convention }),
  tags: check.tags,
});

/** Where the target is gone once the run ends, a check's reproduction is `harness replay` alone (see replayOnly). */
const replayedOnly = (result: CheckResult, options: RunOptions): CheckResult =>
  options.replayOnly && options.replayArguments !== undefined && result.repro.length > 0
    ? { ...result, repro: [replayCommand(result.id, options.replayArguments)] }
    : result;

const runLanes = async (checks: readonly CheckDefinition[], session: Session): Promise<Ran[]> => {
  const lanes = new Map<Lane, CheckDefinition[]>();
  for (const check of checks) lanes.set(check.lane, [...(lanes.get(check.lane) ?? []), check]);
  const results = await Promise.all(
    [...lanes.values()].map(async (lane) => {
      const done: Ran[] = [];
      for (const check of lane) done.push(await runCheck(check, session));
      return done;
    }),
  );
  return results.flat();
};

/** Of the profile with its secrets hidden: a hash of a short secret (a key header, a value from ${VAR}) could be tried. */
const profileHash = (profile: Profile): string =>
  createHash('sha256')
    .update(JSON.stringify(profileRedactor(profile).within(profile)))
    .digest('hex');

export const runConformance = async (
  target: Target,
  selection: readonly Selected[],
  options: RunOptions,
): Promise<RunReport> => {
  const events = options.events ?? new EventStream();
  const session = new Session(target, events, options.http, options.budget);
  const plan = planOf(selection, target);
  options.budget?.setAsideForRun(plan.filter((item) => item.key === TOKENS_ITEM));
  for (const item of plan.filter((i) => i.probe)) {
    const endpoint = target.endpoint(item.endpoint as EndpointKey);
    if (target.mayCall(endpoint)) session.probed.add(endpoint.key);
  }
  const running = selection.filter((s) => s.excluded === undefined).map((s) => s.check);
  const startedAt = new Date();
  const ran: Ran[] = [];
  const deadlineMs = options.deadlineMs ?? runDeadlineMs(target, running, options.http?.requestTimeoutMs);
  session.deadlineAt = clock() + deadlineMs;
  session.emit({ type: 'run-started', checks: running.length, expectedMs: expectedRunMs(target, running) });
  session.replayArguments = options.replayArguments;
  const deadline = setTimeout(() => {
    session.emit({
      type: 'note',
      text: `harness: the run deadline (${deadlineMs / 1000} s) passed: ending the checks still running`,
    });
    void session.end(`run deadline passed (${deadlineMs / 1000} s)`);
  }, deadlineMs);
  const interrupt = () => void session.end(String(options.stop?.reason));
  if (options.stop?.aborted) interrupt();
  else options.stop?.addEventListener('abort', interrupt, { once: true });
  // Awaited last: runCheck never rejects.
  const alongside = runLanes(
    running.filter((c) => c.lane === 'alongside'),
    session,
  );
  try {
    ran.push(
      ...(await runLanes(
        running.filter((c) => c.lane === 'before'),
        session,
      )),
    );
    // Sub-second windows first and alone: a 500-request burst must fit in one second, which other lanes' traffic
    // on the same machine could stretch.
    const main = running.filter((c) => !['before', 'after', 'alongside'].includes(c.lane));
    const subSecond = ({ lane }: CheckDefinition) =>
      lane in BUCKETS && target.limitOf(lane as BucketId).windowMs <= 1000;
    ran.push(...(await runLanes(main.filter(subSecond), session)));
    ran.push(
      ...(await runLanes(
        main.filter((c) => !subSecond(c)),
        session,
      )),
    );
    ran.push(
      ...(await runLanes(
        running.filter((c) => c.lane === 'after'),
        session,
      )),
    );
    ran.push(...(await alongside));
  } finally {
    session.emit({ type: 'checks-ended' });
    clearTimeout(deadline);
    options.stop?.removeEventListener('abort', interrupt);
    await session.close();
  }
  const finishedAt = new Date();
  // A missing --slow is the user's choice, listed with how to run the check; --only and --skip leave theirs out.
  for (const { check, excluded, deselected } of selection) {
    if (excluded !== undefined && !deselected) {
      const result: CheckResult = {
        ...describe(check),
        grade: 'SKIP',
        message: excluded,
        startedAt: finishedAt.toISOString(),
        durationMs: 0,
        evidence: [],
        repro: [],
      };
      ran.push({ result, byChoice: true });
    }
  }
  const order = new Map(selection.map((s, i) => [s.check.id, i]));
  ran.sort((a, b) => order.get(a.result.id)! - order.get(b.result.id)!);
  const results = ran.map((r) => replayedOnly(r.result, options));
  const unverified = ran
    .filter(
      ({ result, byChoice }) => result.grade === 'INCONCLUSIVE' || (result.grade === 'SKIP' && !byChoice),
    )
    .map(({ result }) => result.id);
  const required = new Set(selection.filter((s) => s.check.required).map((s) => s.check.id));
  const leftOut = selection.filter((s) => s.deselected && s.check.required).length;
  const notCertifiable = [
    ...target.notCertifiable,
    ...(leftOut === 0
      ? []
      : [`${leftOut} checks SPEC.md requires were left out by ${options.chosenBy ?? '--only/--skip'}`]),
    ...results
      // A harness error leaves the check unjudged, required or not.
      .filter(
        (r) =>
          r.grade === 'ERROR' || (required.has(r.id) && (r.grade === 'SKIP' || r.grade === 'INCONCLUSIVE')),
      )
      .map(
        (r) => `${r.id}${required.has(r.id) ? ` (required by ${r.clause})` : ''} is ${r.grade}: ${r.message}`,
      ),
  ];
  const counts = Object.fromEntries(
    GRADES.map((g) => [g, results.filter((r) => r.grade === g).length]),
  ) as Record<Grade, number>;
  const report: RunReport = {
    harness: { name: 'harness', version: options.version },
    target: {
      base_url: target.profile.base_url,
      auth_url: target.profile.auth_url,
      tenant: target.profile.tenant,
    },
    profileHash: profileHash(target.profile),
    command: options.command,
    certifiable: notCertifiable.length === 0,
    notCertifiable,
    unverified,
    startedAt: startedAt.toISOString(),
    finishedAt: finishedAt.toISOString(),
    durationMs: finishedAt.getTime() - startedAt.getTime(),
    counts,
    plan,
    sent: Object.fromEntries(session.http.sent),
    checks: results,
  };
  // Evidence was redacted when captured; the target, labels, reproductions and messages quote the profile.
  const redacted = session.http.redactor.within(report) as RunReport;
  await events.finish({ type: 'run-finished', report: redacted });
  return redacted;
};
