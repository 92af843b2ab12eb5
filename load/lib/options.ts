// k6 options from the plan: one arrival-rate scenario per phase, sized for the measured round trip, and the
// per-slot submetrics (count>=0 observers) that carry the evidence into handleSummary. Pure TypeScript.
import type { Options, Scenario } from 'k6/options';
import { type SlotMetricNames, slotMetrics, slotsOf } from '../../core/phase-results.ts';
import type { PhasePlan } from '../../core/plan.ts';
import { arrivalOf, gracefulStopMs, vusFor } from '../../core/schedule.ts';

const scenarioOf = (phase: PhasePlan, roundTripMs: number, instances: number): Scenario => {
  const { timeUnitMs, startRate, rate } = arrivalOf(phase);
  const common = {
    exec: 'probe',
    startTime: `${phase.startMs}ms`,
    gracefulStop: `${gracefulStopMs(roundTripMs)}ms`,
    ...vusFor(phase, roundTripMs, instances),
  };
  if (phase.rampMs === 0) {
    return {
      executor: 'constant-arrival-rate',
      duration: `${phase.durationMs}ms`,
      rate,
      timeUnit: `${timeUnitMs}ms`,
      ...common,
    };
  }
  return {
    executor: 'ramping-arrival-rate',
    startRate,
    timeUnit: `${timeUnitMs}ms`,
    stages: [
      { target: rate, duration: `${phase.rampMs}ms` },
      { target: rate, duration: `${phase.durationMs - phase.rampMs}ms` },
    ],
    ...common,
  };
};

/** Thresholds that never fail: they only make k6 keep each submetric for handleSummary. Verdicts are harness's. */
const observersOf = (phase: PhasePlan, names: SlotMetricNames): Record<string, string[]> => {
  const s = `{scenario:${phase.name}}`;
  const t: Record<string, string[]> = {
    [`iterations${s}`]: ['count>=0'],
    [`dropped_iterations${s}`]: ['count>=0'],
    [`harness_refused${s}`]: ['count>=0'],
    [`harness_network_errors${s}`]: ['count>=0'],
    [`harness_renewed${s}`]: ['count>=0'],
    [`harness_no_token${s}`]: ['count>=0'],
    [`harness_token_status${s}`]: ['max>=0'],
    [`harness_token_unread${s}`]: ['max>=0'],
    [`harness_unslotted${s}`]: ['count>=0'],
    [`harness_retry_after_valid${s}`]: ['rate>=0'],
    [`harness_retry_after_seconds${s}`]: ['max>=0'],
    [`harness_start_lag${s}`]: ['max>=0'],
    [`harness_ratelimit_dialects${s}`]: ['max>=0'],
    [`harness_ratelimit_quota${s}`]: ['max>=0'],
    [`harness_ratelimit_window${s}`]: ['max>=0'],
    [`harness_ratelimit_remaining_limited${s}`]: ['max>=0'],
    // The phase's latency percentiles, as k6 reports them (sending, waiting and receiving; no connection set-up).
    [`http_req_duration${s}`]: ['max>=0'],
  };
  for (const metric of [names.admitted, names.limited]) {
    t[metric] = ['max>=0'];
    for (let slot = 0; slot < slotsOf(phase); slot++) t[`${metric}{slot:${slot}}`] = ['max>=0'];
  }
  return t;
};

export const optionsFor = (
  phases: readonly PhasePlan[],
  roundTripMs: number,
  instances: number,
  setupTimeoutMs: number,
): Options => {
  const names = slotMetrics(phases);
  return {
    scenarios: Object.fromEntries(phases.map((p) => [p.name, scenarioOf(p, roundTripMs, instances)])),
    thresholds: Object.assign({}, ...phases.map((p, i) => observersOf(p, names[i]!))),
    // count, min and max per slot are the evidence; p(99) of a phase's round trips sizes the verdict's tolerance.
    // med and p(95) beside p(99): the latency percentiles the reports show per phase.
    summaryTrendStats: ['count', 'min', 'avg', 'med', 'max', 'p(95)', 'p(99)'],
    setupTimeout: `${setupTimeoutMs}ms`,
    // A probe reads only an answer's status and headers: k6 would otherwise hold every body whole (a target answering
    // 16 MB bodies took k6 past 4 GB). The few requests whose body is read ask for it (responseType: 'text').
    discardResponseBodies: true,
    // k6 follows up to ten redirects by default, sending the client secret, the bearer token and the profile's
    // credential headers on to wherever a target points. A redirect is an answer to grade, as in conformance.
    maxRedirects: 0,
  };
};
