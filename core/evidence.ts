// What a load run recorded, per phase and per slot, and how several instances' records become one. Pure
// TypeScript: k6's handleSummary builds it for one instance, the harness CLI merges several with the same code.
import { type StartSpread, startSpread } from './clocks.ts';
import type { PhasePlan } from './plan.ts';
import { checkRunners, type RunnerIdentity, startOffsetsMs } from './runners.ts';

/**
 * Per slot of send time (plan.slotMs wide, slot 0 starting with the phase): how many requests were admitted and
 * limited, and the round trips that bound when they reached the server. A request sent in slot i with round
 * trip r reached the server in [i·slotMs, (i+1)·slotMs + r] after the phase's start.
 */
export interface SlotEvidence {
  readonly admitted: readonly number[];
  readonly limited: readonly number[];
  /** Longest round trip (ms) of an admitted request sent in the slot; 0 when none was. */
  readonly admittedMaxRttMs: readonly number[];
  /** Shortest round trip (ms) of a 429 sent in the slot; 0 when none was. */
  readonly limitedMinRttMs: readonly number[];
}

export interface RoundTrips {
  readonly minMs: number;
  readonly p99Ms: number;
  readonly maxMs: number;
}

/** A phase's latency percentiles (ms), k6's http_req_duration of its requests. */
export interface Latency {
  readonly p50Ms: number;
  readonly p95Ms: number;
  readonly p99Ms: number;
}

/** Why a token answer's body was not read: sent encoded though `identity` was asked for, or over the cap. */
export type UnreadTokenAnswer = 'encoded' | 'oversized';

export interface TokenFailures {
  readonly count: number;
  readonly minStatus: number;
  readonly maxStatus: number;
  /** Why some of the answers were not read (load/checkpoint/token.go); absent when every one was. */
  readonly unread?: readonly UnreadTokenAnswer[];
}

export interface PhaseResult {
  readonly plan: PhasePlan;
  /** Iterations k6 meant to start: started plus dropped. */
  readonly offered: number;
  readonly admitted: number;
  readonly limited: number;
  /** Answered with a status other than 2xx or 429 (after one token renewal); a redirect, never followed, too. */
  readonly refused: number;
  /** Never answered: connection refused or reset, timeout. */
  readonly networkErrors: number;
  /** Answered 401 and sent again with a fresh token; the retry's answer is the one counted. */
  readonly renewed: number;
  /** Failed token requests and the statuses they got (0: no answer); undefined when none failed. */
  readonly tokenFailures: TokenFailures | undefined;
  /** Iterations that sent nothing for want of a token. */
  readonly noToken: number;
  readonly dropped: number;
  /** Sent too long after the phase's end to fit its slots. */
  readonly unslotted: number;
  /** Share of the 429s whose Retry-After was integer seconds; undefined with no 429. */
  readonly retryAfterValid: number | undefined;
  readonly retryAfterMax: number | undefined;
  readonly roundTrips: RoundTrips | undefined;
  /** How late k6 started iterations against its schedule (p99 and max, ms). */
  readonly startLagMs: { readonly p99: number; readonly max: number };
  /** Absent when no request of the phase was answered (or the runner's k6 predates it). */
  readonly latencyMs?: Latency;
  /** What the answers' RateLimit header fields said; absent when none carried any. */
  readonly rateLimit?: PhaseRateLimit;
  readonly slots: SlotEvidence;
}

/** The numbers of the RateLimit fields a phase's answers carried (core/ratelimit-dialects.ts). */
export interface PhaseRateLimit {
  /** The dialects seen, as dialectBit's bits. */
  readonly dialects: number;
  readonly quota?: Range;
  readonly windowSeconds?: Range;
  /** The most any 429 said remained. */
  readonly remainingOnLimitedMax?: number;
}

export interface Range {
  readonly min: number;
  readonly max: number;
}

export interface LoadSummary {
  readonly target: string;
  readonly generatedAt: string;
  readonly instances: number;
  /** Per instance: how late it started against the common start (ms). */
  readonly lateMs: readonly number[];
  /** Runners on several machines: how far apart their starts may be in the target's time (clocks.ts). */
  readonly startSpread?: StartSpread;
  /** harness's own API requests just before the run, per limiter key: they spend the same limits. */
  readonly preflightRequests: Readonly<Record<string, number>>;
  /** Token requests the runners' setup() sent before the start (pods, having no pre-flight); absent when none. */
  readonly setupTokenRequests?: number;
  readonly phases: readonly PhaseResult[];
  /** A signal stopped the run this long (ms) after its start: phases not over by then are not judged. */
  readonly interrupted?: { readonly reason: string; readonly atMs: number };
  /** One runner's summary: who wrote it (see runners.ts). */
  readonly runner?: RunnerIdentity;
  /** A merged summary: every runner it was made of, by where its summary came from. */
  readonly runners?: readonly (RunnerIdentity & { readonly source: string })[];
  /** Why the merged runners are not one whole run (lost, doubled, foreign, failed): no phase is judged. */
  readonly runnerProblems?: readonly string[];
}

/** A runner's summary and where it came from (a file, a pod's log): the name the merge's problems use. */
export interface SourcedSummary {
  readonly source: string;
  readonly summary: LoadSummary;
}

const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);

const perSlot = (
  parts: readonly SlotEvidence[],
  pick: (s: SlotEvidence, i: number) => number,
  combine: (values: number[]) => number,
  present: (s: SlotEvidence, i: number) => boolean,
) =>
  Array.from({ length: Math.max(0, ...parts.map((p) => p.admitted.length)) }, (_, i) => {
    const values = parts.filter((p) => present(p, i)).map((p) => pick(p, i));
    return values.length === 0 ? 0 : combine(values);
  });

export const mergeSlots = (parts: readonly SlotEvidence[]): SlotEvidence => ({
  admitted: perSlot(
    parts,
    (s, i) => s.admitted[i] ?? 0,
    sum,
    () => true,
  ),
  limited: perSlot(
    parts,
    (s, i) => s.limited[i] ?? 0,
    sum,
    () => true,
  ),
  admittedMaxRttMs: perSlot(
    parts,
    (s, i) => s.admittedMaxRttMs[i]!,
    (v) => Math.max(...v),
    (s, i) => (s.admitted[i] ?? 0) > 0,
  ),
  limitedMinRttMs: perSlot(
    parts,
    (s, i) => s.limitedMinRttMs[i]!,
    (v) => Math.min(...v),
    (s, i) => (s.limited[i] ?? 0) > 0,
  ),
});

const mergeRoundTrips = (parts: readonly (RoundTrips | undefined)[]): RoundTrips | undefined => {
  const known = parts.filter((p): p is RoundTrips => p !== undefined);
  if (known.length === 0) return undefined;
  // The p99 of the union lies between the parts' p99s: the largest is the cautious choice.
  return {
    minMs: Math.min(...known.map((p) => p.minMs)),
    p99Ms: Math.max(...known.map((p) => p.p99Ms)),
    maxMs: Math.max(...known.map((p) => p.maxMs)),
  };
};

/**
 * Each percentile of the union lies between the parts' own: the largest is the cautious choice, as for p99 above.
 * No field when no part has one (a summary's JSON holds no undefined field).
 */
const mergeLatency = (parts: readonly (Latency | undefined)[]): { latencyMs?: Latency } => {
  const known = parts.filter((p): p is Latency => p !== undefined);
  if (known.length === 0) return {};
  const most = (key: keyof Latency) => Math.max(...known.map((p) => p[key]));
  return { latencyMs: { p50Ms: most('p50Ms'), p95Ms: most('p95Ms'), p99Ms: most('p99Ms') } };
};

const mergeTokenFailures = (parts: readonly (TokenFailures | undefined)[]): TokenFailures | undefined => {
  const known = parts.filter((p): p is TokenFailures => p !== undefined);
  if (known.length === 0) return undefined;
  const unread = [...new Set(known.flatMap((p) => p.unread ?? []))].sort();
  return {
    count: sum(known.map((p) => p.count)),
    minStatus: Math.min(...known.map((p) => p.minStatus)),
    maxStatus: Math.max(...known.map((p) => p.maxStatus)),
    ...(unread.length === 0 ? {} : { unread }),
  };
};

const mergeRange = (ranges: readonly (Range | undefined)[]): { min: number; max: number } | undefined => {
  const known = ranges.filter((r): r is Range => r !== undefined);
  return known.length === 0
    ? undefined
    : { min: Math.min(...known.map((r) => r.min)), max: Math.max(...known.map((r) => r.max)) };
};

/** No field when no part saw any (a summary's JSON holds no undefined field). */
const mergeRateLimit = (parts: readonly (PhaseRateLimit | undefined)[]): { rateLimit?: PhaseRateLimit } => {
  const known = parts.filter((p): p is PhaseRateLimit => p !== undefined);
  if (known.length === 0) return {};
  const quota = mergeRange(known.map((p) => p.quota));
  const windowSeconds = mergeRange(known.map((p) => p.windowSeconds));
  const remaining = known.flatMap((p) =>
    p.remainingOnLimitedMax === undefined ? [] : [p.remainingOnLimitedMax],
  );
  return {
    rateLimit: {
      dialects: known.reduce((bits, p) => bits | p.dialects, 0),
      ...(quota ? { quota } : {}),
      ...(windowSeconds ? { windowSeconds } : {}),
      ...(remaining.length > 0 ? { remainingOnLimitedMax: Math.max(...remaining) } : {}),
    },
  };
};

const mergePhase = (parts: readonly PhaseResult[]): PhaseResult => {
  const limited = sum(parts.map((p) => p.limited));
  const maxima = parts.map((p) => p.retryAfterMax).filter((m): m is number => m !== undefined);
  return {
    plan: parts[0]!.plan,
    offered: sum(parts.map((p) => p.offered)),
    admitted: sum(parts.map((p) => p.admitted)),
    limited,
    refused: sum(parts.map((p) => p.refused)),
    networkErrors: sum(parts.map((p) => p.networkErrors)),
    renewed: sum(parts.map((p) => p.renewed)),
    tokenFailures: mergeTokenFailures(parts.map((p) => p.tokenFailures)),
    noToken: sum(parts.map((p) => p.noToken)),
    dropped: sum(parts.map((p) => p.dropped)),
    unslotted: sum(parts.map((p) => p.unslotted)),
    retryAfterValid:
      limited === 0 ? undefined : sum(parts.map((p) => (p.retryAfterValid ?? 0) * p.limited)) / limited,
    retryAfterMax: maxima.length === 0 ? undefined : Math.max(...maxima),
    roundTrips: mergeRoundTrips(parts.map((p) => p.roundTrips)),
    startLagMs: {
      p99: Math.max(...parts.map((p) => p.startLagMs.p99)),
      max: Math.max(...parts.map((p) => p.startLagMs.max)),
    },
    ...mergeLatency(parts.map((p) => p.latencyMs)),
    ...mergeRateLimit(parts.map((p) => p.rateLimit)),
    slots: mergeSlots(parts.map((p) => p.slots)),
  };
};

/** How far apart the runners' starts may be: clocks.ts's bound for several machines, else one clock's start offsets. */
export const spreadOf = (summary: LoadSummary): StartSpread =>
  summary.startSpread ?? {
    ms: summary.lateMs.length > 1 ? Math.max(...summary.lateMs) - Math.min(...summary.lateMs) : 0,
    why: '',
  };

/**
 * Runners' summaries as one run, checked first (runners.ts): a foreign summary is left out, and a set that is not
 * one whole run is merged with the reasons, which leave every phase INCONCLUSIVE.
 */
export const mergeSummaries = (set: readonly SourcedSummary[]): LoadSummary => {
  const { kept, problems } = checkRunners(
    set.map(({ source, summary }) => ({ source, runner: summary.runner })),
  );
  const ours = kept.map((i) => set[i]!);
  const [first] = ours;
  if (first === undefined) throw new Error('no runner summary of a run to merge');
  const runners = ours.map(({ source, summary }) => ({ ...summary.runner!, source }));
  const lateMs = ours.map(({ summary }) => summary.lateMs[0] ?? 0);
  const setupTokenRequests = sum(ours.map(({ summary }) => summary.setupTokenRequests ?? 0));
  const offsets = startOffsetsMs(runners, lateMs);
  const spread = startSpread(runners, offsets);
  return {
    target: first.summary.target,
    generatedAt: new Date().toISOString(),
    instances: ours.length,
    lateMs: offsets,
    ...(spread ? { startSpread: spread } : {}),
    preflightRequests: first.summary.preflightRequests,
    ...(setupTokenRequests > 0 ? { setupTokenRequests } : {}),
    phases: first.summary.phases.map((_, i) => mergePhase(ours.map(({ summary }) => summary.phases[i]!))),
    runners,
    ...(problems.length > 0 ? { runnerProblems: problems } : {}),
  };
};
