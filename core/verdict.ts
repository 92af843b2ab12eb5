// How each phase is graded. Pure TypeScript: k6's handleSummary judges a single instance, the harness CLI the
// merged results of several, with this same code, once a run (judged.ts).
//
// FAIL is a claim about the server and is made only on proof (proofs.ts) or on a 429 without an integer
// Retry-After or another refusal status; a Retry-After longer than the window is WARN, as in conformance
// (retry-after.ts). When harness itself fell short (dropped iterations, k6 starting iterations late,
// instances out of step, requests unanswered), the phase is INCONCLUSIVE. Otherwise the limit read between
// refusals (estimate.ts) must match SPEC.md's within the tolerance; a reading further off, which the evidence cannot
// prove, is INCONCLUSIVE too. A limiter that refuses yet lets through a burst larger than the limit is WARN: a
// token bucket with a capacity above it.
import type { StartSpread } from './clocks.ts';
import { openingBurst, type Reading, sustained } from './estimate.ts';
import { type LoadSummary, type PhaseResult, spreadOf } from './evidence.ts';
import type { Grade } from './grade.ts';
import { offeredAt, type PhasePlan } from './plan.ts';
import { type ProofSpan, tooFewBeforeRefusal, tooManyAfterRefusal, tooManyInInterval } from './proofs.ts';
import { rateLimitNote } from './ratelimit-note.ts';
import { retryAfterBeyondWindow } from './retry-after.ts';
import { slotRange, type Timeline, timelinesOf } from './timeline.ts';
import { tokenEndpointSaid } from './token-reader.ts';
import { TOKEN_REQUESTS_PER_SECOND } from './token-turns.ts';

/** A phase is judged on its evidence: never SKIP (the plan leaves a phase out), INFO (its notes) or ERROR (k6's exit). */
export type LoadGrade = Extract<Grade, 'FAIL' | 'INCONCLUSIVE' | 'WARN' | 'PASS'>;

/** One load phase's verdict: its grade and the reason, with what the phase measured. */
export interface PhaseVerdict {
  readonly grade: LoadGrade;
  readonly message: string;
  /** INFO: what the phase showed beyond its grade. */
  readonly notes: readonly string[];
  /** The limit read between refusals, per window (over and knee phases). */
  readonly enforcedPerWindow?: number;
  /** How far that reading is from SPEC.md's limit, in percent (signed). */
  readonly errorPercent?: number;
  /** A FAIL's proof on the run's clock, which the report's chart marks. */
  readonly proof?: ProofSpan;
}

/** Round trips that vary by more than this (p99 − min) make counts at a span's ends noisier: 2 % instead of 1 %. */
const JITTERY_MS = 40;

export const perSecond = (perWindow: number, plan: PhasePlan): number =>
  (perWindow * 1000) / plan.limit.windowMs;

/** `30 / minute`, or with a test server's shortened minute `30 / minute (2 s windows)`. */
export const describeLimit = ({ limit }: PhasePlan): string =>
  `${limit.count} / ${limit.per}${limit.per === 'minute' && limit.windowMs !== 60_000 ? ` (${limit.windowMs / 1000} s windows)` : ''}`;

const fmt = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(2));

/** The reading's allowed error: 1 % of the limit (2 % on a jittery network), never less than one request a span. */
const toleranceOf = (result: PhaseResult, reading: Reading): number => {
  const rtt = result.roundTrips;
  const share = rtt !== undefined && rtt.p99Ms - rtt.minMs > JITTERY_MS ? 0.02 : 0.01;
  return Math.max(result.plan.limit.count * share, 1 / reading.windows);
};

/**
 * Why the offered rate may not have been the plan's: each is harness's shortfall, not the server's, the likeliest
 * cause first (VUs waiting on a token endpoint or on unanswered requests are what leaves too few of them).
 */
const shortfalls = (result: PhaseResult, spread: StartSpread): string[] => {
  const { plan } = result;
  // Late starts bunch requests; a tenth of a window of it changes what any window is offered.
  const lagLimit = Math.max(50, plan.limit.windowMs / 10);
  const tokens = result.tokenFailures;
  return [
    ...(tokens || result.noToken > 0
      ? [
          `${result.noToken} requests not sent for want of a token: ${tokens ? `the token endpoint ${tokenEndpointSaid(tokens)}` : `none of this phase's token requests failed: the token endpoint failed before it, or its tokens live too briefly for every VU to renew within the run's bound of ${TOKEN_REQUESTS_PER_SECOND} token requests a second (SPEC.md's live an hour)`}`,
        ]
      : []),
    ...(result.networkErrors > 0 ? [`${result.networkErrors} requests never answered`] : []),
    ...(result.admitted + result.limited === 0 ? ['not one request was admitted or limited'] : []),
    ...(result.dropped > 0 ? [`${result.dropped} iterations dropped (all VUs busy)`] : []),
    ...(result.startLagMs.p99 > lagLimit
      ? [`k6 started 1 % of iterations over ${Math.round(result.startLagMs.p99)} ms late (CPU starved)`]
      : []),
    ...(result.unslotted > 0 ? [`${result.unslotted} requests sent after the phase's end`] : []),
    ...(spread.ms === undefined
      ? [`the runners' starts cannot be compared: ${spread.why}`]
      : spread.ms > lagLimit
        ? [
            spread.why
              ? `the runners' starts may lie over a tenth of a window apart: ${spread.why}`
              : `the k6 instances started ${Math.round(spread.ms)} ms apart`,
          ]
        : []),
  ];
};

/** What breaks SPEC.md in the phase, each said with its arithmetic, and where the first proof of a limit lies. */
const faults = (
  result: PhaseResult,
  tl: Timeline,
  first: number,
  end: number,
): { found: string[]; proof?: ProofSpan } => {
  const found: string[] = [];
  const afterRefusal = tooManyAfterRefusal(tl, first, end);
  // (B) alone cannot tell a token bucket holding more than N (WARN) from no limit, unless nothing was refused.
  const inInterval = result.limited === 0 ? tooManyInInterval(tl, first, end) : undefined;
  const tooMany =
    afterRefusal ?? (inInterval && { ...inInterval, message: `no 429 at all; ${inInterval.message}` });
  if (tooMany) found.push(`more admitted than ${describeLimit(result.plan)} allows: ${tooMany.message}`);
  const tooFew = tooFewBeforeRefusal(tl, first, end);
  if (tooFew) found.push(`limited below ${describeLimit(result.plan)}: ${tooFew.message}`);
  if (result.limited > 0 && result.retryAfterValid !== 1) {
    const bad = Math.round((1 - (result.retryAfterValid ?? 0)) * result.limited);
    found.push(`${bad} of ${result.limited} 429s without an integer Retry-After (SPEC.md §8 rule 2)`);
  }
  if (result.refused > 0)
    found.push(
      `${result.refused} requests answered with a status other than 2xx or 429 (a redirect, never followed, among them)`,
    );
  const proof = (tooMany ?? tooFew)?.span;
  return proof === undefined ? { found } : { found, proof };
};

/** A burst larger than any limiter holding at most N admits, from a limiter that does refuse: a bigger bucket. */
const capacityAbove = (result: PhaseResult, tl: Timeline, first: number, end: number): string | undefined => {
  if (result.limited === 0) return undefined;
  const proof = tooManyInInterval(tl, first, end);
  return proof && `a burst holding more than ${result.plan.limit.count}: ${proof.message}`;
};

/** The limit read between 429s, as a verdict reports it beside a FAIL or a shortfall too. */
const measured = (reading: Reading | undefined, n: number) =>
  reading === undefined
    ? {}
    : { enforcedPerWindow: reading.perWindow, errorPercent: ((reading.perWindow - n) / n) * 100 };

const judgeRate = (
  result: PhaseResult,
  tl: Timeline,
  range: { first: number; offering: number; end: number },
  reading: Reading | undefined,
): PhaseVerdict => {
  const { first, offering, end } = range;
  const { plan } = result;
  const n = plan.limit.count;
  if (reading === undefined) {
    const why = result.limited === 0 ? 'no 429' : 'no 429 recurred a whole window after another';
    return { grade: 'INCONCLUSIVE', message: `${why}: the limit cannot be read`, notes: [] };
  }
  const enforcedPerWindow = reading.perWindow;
  const errorPercent = ((enforcedPerWindow - n) / n) * 100;
  const read = `reads ${fmt(enforcedPerWindow)} per window (${fmt(Math.abs(errorPercent))} % ${errorPercent < 0 ? 'below' : 'above'} SPEC.md's ${describeLimit(plan)})`;
  const notes = [`${reading.spans} spans of 1 to ${reading.windows} windows between 429s read`];
  const tolerance = toleranceOf(result, reading);
  if (Math.abs(enforcedPerWindow - n) > tolerance) {
    const rtt = result.roundTrips
      ? `${Math.round(result.roundTrips.p99Ms)} ms round trips`
      : 'the round trips';
    return {
      grade: 'INCONCLUSIVE',
      message: `${read}, more than ${fmt(tolerance)} requests off, but with ${rtt} the evidence cannot prove it: run nearer the server or longer`,
      notes,
      enforcedPerWindow,
      errorPercent,
    };
  }
  const verdict = {
    message: `${read}, within the tolerance of ${fmt(tolerance)} request${tolerance === 1 ? '' : 's'}`,
    enforcedPerWindow,
    errorPercent,
  };
  const bigger = capacityAbove(result, tl, first, end);
  if (bigger) {
    const warn = `${bigger}: a token bucket with a capacity above ${n} (SPEC.md allows ${describeLimit(plan)})`;
    return { grade: 'WARN', ...verdict, message: `${warn}; sustained ${verdict.message}`, notes };
  }
  if (plan.phase === 'over' && plan.clients.length === 1) {
    const burst = openingBurst(tl, first, offering, enforcedPerWindow);
    const timing =
      ((2 * plan.slotMs + (result.roundTrips?.p99Ms ?? 0)) * enforcedPerWindow) / plan.limit.windowMs;
    if (burst !== undefined) {
      const opening = `opening burst: ${burst.admitted} admitted in ${fmt(burst.ms / 1000)} s before the first 429, ${fmt(burst.beyondRate)} beyond the sustained rate`;
      if (burst.beyondRate > n + tolerance + timing) {
        return {
          grade: 'WARN',
          ...verdict,
          message: `${opening}: a token bucket with a capacity above ${n} (SPEC.md allows ${describeLimit(plan)}); sustained ${verdict.message}`,
          notes,
        };
      }
      notes.push(opening);
    }
  }
  return { grade: 'PASS', ...verdict, notes };
};

/** A Retry-After longer than the window makes a PASS a WARN, and is noted beside a FAIL or INCONCLUSIVE. */
const withRetryAfter = (result: PhaseResult, verdict: PhaseVerdict): PhaseVerdict => {
  const { retryAfterMax: longest, limited } = result;
  const beyond =
    longest === undefined ? undefined : retryAfterBeyondWindow(longest, result.plan.limit.windowMs);
  if (beyond === undefined) return verdict;
  const said = `${beyond}: the longest of ${limited} 429s`;
  if (verdict.grade === 'PASS' || verdict.grade === 'WARN') {
    return { ...verdict, grade: 'WARN', message: `${said}; ${verdict.message}` };
  }
  return { ...verdict, notes: [...verdict.notes, said] };
};

const judgeEvidence = (result: PhaseResult, tl: Timeline, spread: StartSpread): PhaseVerdict => {
  const { plan } = result;
  const { first, end } = slotRange(result);
  // The reading stops where the phase stops offering: its tail slots hold the next phase's first requests.
  const offering = first + Math.ceil(plan.durationMs / plan.slotMs);
  const reading = plan.phase === 'within' ? undefined : sustained(tl, first, offering, plan.offeredPerWindow);
  const { found, proof } = faults(result, tl, first, end);
  if (found.length > 0) {
    const failed = {
      grade: 'FAIL',
      message: found.join('; '),
      notes: [],
      ...measured(reading, plan.limit.count),
    } as const;
    return proof === undefined ? failed : { ...failed, proof };
  }
  const short = shortfalls(result, spread);
  if (short.length > 0) {
    const rate = perSecond(offeredAt(plan, plan.durationMs), plan);
    return {
      grade: 'INCONCLUSIVE',
      message: `harness could not offer ${fmt(rate)}/s: ${short.join('; ')}`,
      notes: [],
      ...measured(reading, plan.limit.count),
    };
  }
  if (plan.phase !== 'within') return judgeRate(result, tl, { first, offering, end }, reading);
  const share = `${Math.round((plan.offeredPerWindow / plan.limit.count) * 100)} % of the limit`;
  if (result.limited === 0)
    return { grade: 'PASS', message: `no 429 at ${share}, ${result.admitted} admitted`, notes: [] };
  return {
    grade: 'INCONCLUSIVE',
    message: `${result.limited} 429s at ${share}, yet the evidence allows a faithful limiter (the network may have bunched requests, or other traffic of the tenant spent the limit)`,
    notes: [],
  };
};

/** The RateLimit fields the answers carried, noted: SPEC.md asks for none, so they never change a grade here. */
const withRateLimitFields = (result: PhaseResult, verdict: PhaseVerdict): PhaseVerdict =>
  result.rateLimit === undefined
    ? verdict
    : { ...verdict, notes: [...verdict.notes, rateLimitNote(result.plan, result.rateLimit)] };

const judgePhase = (result: PhaseResult, tl: Timeline, spread: StartSpread): PhaseVerdict =>
  withRateLimitFields(result, withRetryAfter(result, judgeEvidence(result, tl, spread)));

/** Every phase's verdict, in the summary's order: judged.ts's judge() is the one caller outside the tests. */
export const judgeAll = (summary: LoadSummary): PhaseVerdict[] => {
  const timelines = timelinesOf(summary);
  const spread = spreadOf(summary);
  const { interrupted, runnerProblems } = summary;
  // Part of the evidence is missing, doubled or another run's: no phase can be proven either way.
  if (runnerProblems !== undefined && runnerProblems.length > 0) {
    const message = `the runners' summaries are not one whole run: ${runnerProblems.join('; ')}`;
    return summary.phases.map(() => ({ grade: 'INCONCLUSIVE', message, notes: [] }));
  }
  return summary.phases.map((p) =>
    interrupted !== undefined && p.plan.startMs + p.plan.durationMs > interrupted.atMs
      ? { grade: 'INCONCLUSIVE', message: `${interrupted.reason} before this phase ended`, notes: [] }
      : judgePhase(p, timelines.get(p.plan.limiterKey)!, spread),
  );
};
