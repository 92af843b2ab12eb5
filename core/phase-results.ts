// A phase's evidence as k6 records it (one Trend per phase and kind of answer, tagged by slot; see
// load/lib/options.ts) and as harness reads it back: from k6's end-of-test data (load/lib/summary.ts) or, where k6
// was killed before that, from the checkpoint its harness-checkpoint output left (src/k6-driver/checkpoint.ts).
import type { Latency, PhaseRateLimit, PhaseResult, TokenFailures, UnreadTokenAnswer } from './evidence.ts';
import type { PhasePlan } from './plan.ts';

const ADMITTED = 'harness_admitted_rtt_';
const LIMITED = 'harness_limited_rtt_';
/** Room for the phase's part of a name beside the longer prefix: k6 takes names of up to 128 characters. */
const PHASE_PART_MAX = 128 - Math.max(ADMITTED.length, LIMITED.length);

export interface SlotMetricNames {
  readonly admitted: string;
  readonly limited: string;
}

/**
 * Each phase records its answers in two Trends of its own, admitted and 429, the value being the request's round
 * trip and the `slot` tag the slot of its send time. Per-phase metrics keep k6's matching of a sample against
 * submetrics (a linear scan of the metric's submetrics) to that phase's slots. They are named after the phase, so
 * the k6 web dashboard reads `harness_admitted_rtt_over_transactions`; a phase's characters k6 refuses (`-`)
 * become `_`, and a name that would then be taken, or be too long, ends in the phase's index instead.
 */
export const slotMetrics = (phases: readonly PhasePlan[]): SlotMetricNames[] => {
  const taken = new Set<string>();
  const unique = (safe: string, index: number): string => {
    if (!taken.has(safe) && safe.length <= PHASE_PART_MAX) return safe;
    for (let again = 0; ; again++) {
      const tail = again === 0 ? `_${index}` : `_${index}_${again}`;
      const part = `${safe.slice(0, PHASE_PART_MAX - tail.length)}${tail}`;
      if (!taken.has(part)) return part;
    }
  };
  return phases.map((phase, index) => {
    const part = unique(phase.name.replace(/[^a-zA-Z0-9_]/g, '_'), index);
    taken.add(part);
    return { admitted: `${ADMITTED}${part}`, limited: `${LIMITED}${part}` };
  });
};

/** Slots past the phase's end that still hold evidence: the last iterations start late under load. */
const TAIL_SLOTS = 25;

export const slotsOf = (phase: PhasePlan): number => Math.ceil(phase.durationMs / phase.slotMs) + TAIL_SLOTS;

/** The values of one metric or submetric (`name{tag:value}`) that a phase's result is read from. */
export interface MetricValues {
  readonly count?: number;
  readonly rate?: number;
  readonly min?: number;
  readonly max?: number;
  readonly med?: number;
  readonly 'p(95)'?: number;
  readonly 'p(99)'?: number;
}

/**
 * A phase's latency percentiles from k6's http_req_duration of its requests; no field when none was answered (a
 * summary's JSON holds no undefined field).
 */
const latencyOf = (duration: MetricValues): { latencyMs?: Latency } =>
  (duration.count ?? 0) === 0
    ? {}
    : {
        latencyMs: { p50Ms: duration.med ?? 0, p95Ms: duration['p(95)'] ?? 0, p99Ms: duration['p(99)'] ?? 0 },
      };

const rangeOf = (values: MetricValues): { min: number; max: number } | undefined =>
  (values.count ?? 0) === 0 ? undefined : { min: values.min ?? 0, max: values.max ?? 0 };

/** What the RateLimit fields of the phase's answers said; no field when none carried any. */
const rateLimitOf = (of: (metric: string) => MetricValues): { rateLimit?: PhaseRateLimit } => {
  const dialects = rangeOf(of('harness_ratelimit_dialects'));
  if (dialects === undefined) return {};
  const quota = rangeOf(of('harness_ratelimit_quota'));
  const windowSeconds = rangeOf(of('harness_ratelimit_window'));
  const remaining = rangeOf(of('harness_ratelimit_remaining_limited'));
  return {
    rateLimit: {
      dialects: dialects.min | dialects.max,
      ...(quota ? { quota } : {}),
      ...(windowSeconds ? { windowSeconds } : {}),
      ...(remaining ? { remainingOnLimitedMax: remaining.max } : {}),
    },
  };
};

/**
 * harness_token_unread records each token answer left unread as one bit of its reason, so a phase's min and max
 * (all k6 keeps of it) say which reasons came: a fixed word, never what the answer said.
 */
export const UNREAD_BITS: Readonly<Record<UnreadTokenAnswer, number>> = { encoded: 1, oversized: 2 };

/** The phase's failed token requests, and why answers among them were unread; undefined when none failed. */
const tokenFailuresOf = (of: (metric: string) => MetricValues): TokenFailures | undefined => {
  const statuses = of('harness_token_status');
  if ((statuses.count ?? 0) === 0) return undefined;
  const bits = rangeOf(of('harness_token_unread'));
  const unread = (Object.keys(UNREAD_BITS) as UnreadTokenAnswer[]).filter(
    (answer) => bits !== undefined && ((bits.min | bits.max) & UNREAD_BITS[answer]) !== 0,
  );
  return {
    count: statuses.count ?? 0,
    minStatus: statuses.min ?? 0,
    maxStatus: statuses.max ?? 0,
    ...(unread.length === 0 ? {} : { unread }),
  };
};

/** Every phase's result, from the values of the metrics k6 recorded (absent ones read as empty). */
export const phaseResults = (
  values: (name: string) => MetricValues,
  phases: readonly PhasePlan[],
): PhaseResult[] => {
  const metricNames = slotMetrics(phases);
  return phases.map((phase, index) => {
    const of = (metric: string) => values(`${metric}{scenario:${phase.name}}`);
    const count = (metric: string) => of(metric).count ?? 0;
    const names = metricNames[index]!;
    const slot = (metric: string, i: number) => values(`${metric}{slot:${i}}`);
    const slots = Array.from({ length: slotsOf(phase) }, (_, i) => i);
    const admitted = values(names.admitted);
    const limited = values(names.limited);
    const answered = [admitted, limited].filter((v) => (v.count ?? 0) > 0);
    return {
      plan: phase,
      offered: count('iterations') + count('dropped_iterations'),
      admitted: admitted.count ?? 0,
      limited: limited.count ?? 0,
      refused: count('harness_refused'),
      networkErrors: count('harness_network_errors'),
      renewed: count('harness_renewed'),
      tokenFailures: tokenFailuresOf(of),
      noToken: count('harness_no_token'),
      dropped: count('dropped_iterations'),
      unslotted: count('harness_unslotted'),
      retryAfterValid: (limited.count ?? 0) === 0 ? undefined : of('harness_retry_after_valid').rate,
      retryAfterMax: (limited.count ?? 0) === 0 ? undefined : of('harness_retry_after_seconds').max,
      roundTrips:
        answered.length === 0
          ? undefined
          : {
              minMs: Math.min(...answered.map((v) => v.min ?? 0)),
              p99Ms: Math.max(...answered.map((v) => v['p(99)'] ?? 0)),
              maxMs: Math.max(...answered.map((v) => v.max ?? 0)),
            },
      startLagMs: { p99: of('harness_start_lag')['p(99)'] ?? 0, max: of('harness_start_lag').max ?? 0 },
      ...latencyOf(of('http_req_duration')),
      ...rateLimitOf(of),
      slots: {
        admitted: slots.map((i) => slot(names.admitted, i).count ?? 0),
        limited: slots.map((i) => slot(names.limited, i).count ?? 0),
        admittedMaxRttMs: slots.map((i) => slot(names.admitted, i).max ?? 0),
        limitedMinRttMs: slots.map((i) => slot(names.limited, i).min ?? 0),
      },
    };
  });
};
