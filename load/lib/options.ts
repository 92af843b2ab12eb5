// k6 options from the plan: one arrival-rate scenario per phase, thresholds that judge it, and per-slot
// submetrics (count>=0 observers) so handleSummary can draw the admitted/limited chart.
import type { Options, Scenario } from 'k6/options';
import type { PhasePlan } from './plan.ts';

/** rate per timeUnit as k6 wants them: whole requests per a unit (one per two windows for a limit of one). */
export const arrival = (perWindow: number, windowMs: number) =>
  perWindow >= 1
    ? { rate: Math.round(perWindow), timeUnit: `${windowMs}ms` }
    : { rate: 1, timeUnit: `${Math.round(windowMs / perWindow)}ms` };

/** Enough VUs for loopback-to-staging latencies without dropping iterations; never fewer than the instances. */
const vus = (phase: PhasePlan, instances: number) => {
  const perSecond = (phase.offeredPerWindow * 1000) / phase.limit.windowMs;
  const pre = Math.max(2 * instances, Math.ceil(perSecond * 0.05) + 5);
  return { preAllocatedVUs: pre, maxVUs: Math.max(50, 4 * pre) };
};

const scenarioOf = (phase: PhasePlan, instances: number): Scenario => {
  const common = { exec: 'probe', startTime: `${phase.startMs}ms`, ...vus(phase, instances) };
  if (phase.phase !== 'knee') {
    return {
      executor: 'constant-arrival-rate',
      duration: `${phase.durationMs}ms`,
      ...arrival(phase.offeredPerWindow, phase.limit.windowMs),
      ...common,
    };
  }
  const from = arrival(phase.fromPerWindow, phase.limit.windowMs);
  const to = arrival(phase.offeredPerWindow, phase.limit.windowMs);
  return {
    executor: 'ramping-arrival-rate',
    startRate: from.rate,
    timeUnit: to.timeUnit,
    stages: [{ target: to.rate, duration: `${phase.durationMs}ms` }],
    ...common,
  };
};

export const slotsOf = (phase: PhasePlan): number => Math.ceil(phase.durationMs / phase.slotMs) + 1;

/**
 * Count thresholds judge a whole phase, so with several instances (each seeing a share) they are left to the
 * harness CLI, which judges the merged counts with the same rules (verdict.ts).
 */
const thresholdsOf = (phase: PhasePlan, instances: number): Record<string, string[]> => {
  const s = `{scenario:${phase.name}}`;
  const t: Record<string, string[]> = {
    [`harness_refused${s}`]: ['count==0'],
    [`dropped_iterations${s}`]: ['count==0'],
    [`iterations${s}`]: ['count>=0'],
    [`harness_admitted${s}`]: ['count>=0'],
    [`harness_limited${s}`]: ['count>=0'],
    [`harness_retry_after_valid${s}`]: ['rate>=0'],
    [`harness_retry_after_seconds${s}`]: ['max>=0'],
  };
  if (phase.phase === 'within') t[`harness_limited${s}`] = ['count==0'];
  if (phase.phase === 'over') {
    t[`harness_retry_after_valid${s}`] = ['rate==1'];
    if (instances === 1) {
      t[`harness_admitted${s}`] = [
        `count>=${Math.floor(phase.expectedAdmitted * 0.99)}`,
        `count<=${Math.ceil(phase.expectedAdmitted * 1.01)}`,
      ];
    }
  }
  for (let slot = 0; slot < slotsOf(phase); slot++) {
    for (const metric of ['harness_admitted', 'harness_limited']) {
      t[`${metric}{scenario:${phase.name},slot:${slot}}`] = ['count>=0'];
    }
  }
  return t;
};

export const optionsFor = (phases: readonly PhasePlan[], instances: number): Options => ({
  scenarios: Object.fromEntries(phases.map((p) => [p.name, scenarioOf(p, instances)])),
  thresholds: Object.assign({}, ...phases.map((p) => thresholdsOf(p, instances))),
  summaryTrendStats: ['avg', 'min', 'max', 'p(95)'],
  // Our own handleSummary writes the reports; setup() returns nothing secret (see auth.ts).
  setupTimeout: '60s',
});
