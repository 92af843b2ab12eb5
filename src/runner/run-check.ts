// One check run: its verdict from how it ended (returned, a GradedEnd thrown, a client error, a bug), its evidence and
// reproduction from what it sent, and its events told as it starts and finishes.
import { isHarnessError } from '../errors.ts';
import { BUCKETS, sectionOf } from '../spec/index.ts';
import { CheckContext, sessionOf } from './context.ts';
import { type Grade, GradedEnd, inconclusive, type Shown } from './grades.ts';
import { plannedFor } from './plan.ts';
import { replayFor, reproFor } from './repro.ts';
import { noTokenReason, type Session } from './session.ts';
import type { CheckDefinition, CheckResult } from './types.ts';

/** How a check ended; `byChoice` marks a SKIP the user chose (see skipByChoice), which leaves no rule unverified. */
interface CheckVerdict {
  readonly grade: Grade;
  readonly message: string;
  readonly byChoice?: boolean;
  readonly shown?: Shown;
}

const verdictOf = (error: unknown, ctx: CheckContext, check: CheckDefinition): CheckVerdict => {
  if (error instanceof GradedEnd) {
    const { grade, message, byChoice, shown } = error;
    return { grade, message, byChoice, shown };
  }
  // --max-requests is the user's cap: a check that does not fit in it is left out by choice.
  if (isHarnessError(error, 'HARNESS_BUDGET'))
    return { grade: 'SKIP', message: error.message, byChoice: true };
  if (isHarnessError(error, 'HARNESS_TOKEN')) {
    ctx.record(error.evidence);
    return { grade: 'SKIP', message: noTokenReason(error) };
  }
  if (isHarnessError(error, 'HARNESS_TARGET')) {
    ctx.record(error.evidence);
    const message = `the target failed to answer (${error.kind}): ${error.message}`;
    // A check that only warns or informs cannot fail the run on a request SPEC.md does not require to work.
    return check.failsWith.includes('FAIL') ? { grade: 'FAIL', message } : { grade: 'INCONCLUSIVE', message };
  }
  // A fault in harness itself is no verdict on the target: ERROR, which exits 4. Its message can quote a secret.
  return {
    grade: 'ERROR',
    message: `harness error: ${sessionOf(ctx).http.redactor.text(describeBug(error))}`,
  };
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
    const end = () => reject(new GradedEnd('INCONCLUSIVE', `${ended.reason} while this check ran`));
    if (ended.aborted) return end();
    ended.addEventListener('abort', end, { once: true });
    running.then(resolve, reject).finally(() => ended.removeEventListener('abort', end));
  });

/** A check's result, and whether the user chose that it not run (never part of the report's check entry). */
export interface Ran {
  readonly result: CheckResult;
  readonly byChoice: boolean;
}

export const runCheck = async (check: CheckDefinition, session: Session): Promise<Ran> => {
  const ctx = new CheckContext(check.id, session);
  const started = session.clock.now();
  const startedAt = new Date(started).toISOString();
  session.emit({ type: 'check-started', id: check.id });
  let verdict: CheckVerdict;
  try {
    if (session.ended.aborted) inconclusive(`${session.ended.reason}: not started`);
    const run = () => check.run(ctx);
    const { budget } = session.http;
    const items = plannedFor(check, session.target);
    const found = await untilRunEnds(budget ? budget.within(items, run) : run(), session.ended);
    verdict =
      typeof found === 'string'
        ? { grade: 'PASS', message: found }
        : { grade: 'PASS', message: found.message, shown: found };
  } catch (error) {
    verdict = verdictOf(error, ctx, check);
    if (error instanceof GradedEnd && undeclared(check, verdict.grade)) {
      verdict = {
        grade: 'ERROR',
        message: `harness error: ${check.id} graded ${verdict.grade}, which its failsWith does not list: ${verdict.message}`,
      };
    }
  }
  const durationMs = session.clock.now() - started;
  const { grade, message, shown = {} } = verdict;
  const context = {
    profile: session.target.profile,
    hide: (text: string) => session.http.redactor.known(text),
  };
  const sent = ctx.evidence.map((evidence) => ctx.sent(evidence));
  // The probe's first request is the check's first evidence: replayed with the check, or shown by hand.
  const [first] = sent;
  const replayed = check.lane in BUCKETS && shown.reproduce !== 'by hand' && first !== undefined;
  session.emit({ type: 'check-finished', id: check.id, grade, message, durationMs });
  return {
    result: {
      ...describe(check),
      grade: verdict.grade,
      message: verdict.message,
      startedAt,
      durationMs,
      evidence: ctx.evidence,
      repro: replayed
        ? replayFor(check.id, session.replayArguments, first, context)
        : reproFor(sent, context),
      ...(shown.timeline === undefined ? {} : { timeline: shown.timeline }),
    },
    byChoice: verdict.byChoice === true,
  };
};

export const describe = (check: CheckDefinition) => ({
  id: check.id,
  title: check.title,
  clause: check.clause,
  section: sectionOf(check.clause),
  quote: check.quote,
  ...(check.convention === undefined ? {} : { convention: check.convention }),
  tags: check.tags,
});
