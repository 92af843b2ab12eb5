// A load run without k6 or sockets: the plan's schedule sent through a modelled network (one-way latency with
// uniform jitter each way) to the reference server's own limiter algorithms, recorded as k6 would record it.
// Pure and seeded, so verdict tests can cover every limiter kind, network and window phase in milliseconds.
import type { LoadSummary, PhaseResult } from '../../core/evidence.ts';
import { slotsOf } from '../../core/phase-results.ts';
import type { PhasePlan } from '../../core/plan.ts';
import type { RunnerIdentity } from '../../core/runners.ts';
import { scheduledMs } from '../../core/schedule.ts';
import { type PlanOptions, planProbes } from '../../src/k6-driver/plan.ts';
import { resolveTarget } from '../../src/profile/target.ts';
import { createLimitState, type LimiterKind, type LimitState } from '../../src/reference/limiter-kinds.ts';
import type { Profile } from '../../src/spec/index.ts';
import { seededRandom } from '../support/random.ts';
import { PLAN_ONLY_TARGET } from './target.ts';

/** Who wrote a simulated summary, as a runner records it (core/runners.ts): a merge refuses a summary without one. */
export const SIMULATED_RUNNER: RunnerIdentity = {
  runId: 'run-1',
  planDigest: 'a'.repeat(64),
  segment: '0:1',
  sequence: '',
  startAt: Date.parse('2026-11-26T12:00:00Z'),
  setupCompleted: true,
  harnessVersion: 'test',
  k6Version: 'v2.2.0',
  clock: { host: 'h' },
};

export interface Network {
  readonly latencyMs: number;
  readonly jitterMs: number;
}

export const NETWORKS = {
  lan: { latencyMs: 0.3, jitterMs: 0.2 },
  region: { latencyMs: 40, jitterMs: 5 },
  far: { latencyMs: 100, jitterMs: 30 },
} as const satisfies Record<string, Network>;

export interface Simulation {
  readonly kind: LimiterKind;
  readonly network: Network;
  /** The limit the server enforces as a share of the planned one (0.9: 10 % low); Infinity for no limit. */
  readonly enforced?: number;
  /** Where the plan's time 0 falls on the server's clock: moves clock-aligned windows against the phases. */
  readonly clockOffsetMs?: number;
  /** Another algorithm than the reference server's own kinds (a bucket larger than the limit, say). */
  readonly limiter?: (count: number, ms: number) => LimitState;
  /** Iterations k6 drops, spread evenly, per phase name. */
  readonly dropped?: Readonly<Record<string, number>>;
  readonly seed?: number;
}

interface Sent {
  readonly phase: number;
  readonly sent: number;
  readonly arrives: number;
  readonly answered: number;
}

export const TARGET: Profile = {
  ...PLAN_ONLY_TARGET,
  observability: ['GET /api/observability/a'],
  limits: { 'transaction-event': { count: 200, per: 'second' } },
  minute_ms: 2000,
};

export const simulate = (sim: Simulation, plan: PlanOptions, target: Profile = TARGET): LoadSummary => {
  const rand = seededRandom(sim.seed ?? 1);
  const phases: PhasePlan[] = planProbes(resolveTarget(target), plan).probes.flatMap((p) => p.phases);
  const oneWay = () => Math.max(0, sim.network.latencyMs + (rand() * 2 - 1) * sim.network.jitterMs);
  const requests: Sent[] = [];
  phases.forEach((phase, index) => {
    let toDrop = sim.dropped?.[phase.name] ?? 0;
    for (let i = 0; ; i++) {
      const at = scheduledMs(phase, i);
      if (at >= phase.durationMs) break;
      if (toDrop > 0 && i % 7 === 3) {
        toDrop--;
        continue;
      }
      const sent = phase.startMs + at;
      const arrives = sent + oneWay();
      requests.push({ phase: index, sent, arrives, answered: arrives + oneWay() });
    }
  });
  requests.sort((a, b) => a.arrives - b.arrives);
  const states = new Map<string, ReturnType<typeof createLimitState>>();
  const outcomes = requests.map((r) => {
    const phase = phases[r.phase]!;
    let state = states.get(phase.limiterKey);
    if (state === undefined) {
      const count = Math.max(1, Math.round(phase.limit.count * (sim.enforced ?? 1)));
      state = (sim.limiter ?? ((c, ms) => createLimitState(sim.kind, c, ms)))(count, phase.limit.windowMs);
      states.set(phase.limiterKey, state);
    }
    return state.admit(r.arrives + (sim.clockOffsetMs ?? 0)) === 0;
  });
  const results: PhaseResult[] = phases.map((phase, index) => {
    const n = slotsOf(phase);
    const slots = {
      admitted: Array.from({ length: n }, () => 0),
      limited: Array.from({ length: n }, () => 0),
      admittedMaxRttMs: Array.from({ length: n }, () => 0),
      limitedMinRttMs: Array.from({ length: n }, () => Number.POSITIVE_INFINITY),
    };
    let admitted = 0;
    let limited = 0;
    let rttMax = 0;
    let rttMin = Number.POSITIVE_INFINITY;
    requests.forEach((r, k) => {
      if (r.phase !== index) return;
      // k6 records whole milliseconds from Date.now().
      const rtt = Math.ceil(r.answered) - Math.floor(r.sent);
      const slot = Math.floor((r.sent - phase.startMs) / phase.slotMs);
      rttMax = Math.max(rttMax, rtt);
      rttMin = Math.min(rttMin, rtt);
      if (outcomes[k]) {
        admitted++;
        slots.admitted[slot]!++;
        slots.admittedMaxRttMs[slot] = Math.max(slots.admittedMaxRttMs[slot]!, rtt);
      } else {
        limited++;
        slots.limited[slot]!++;
        slots.limitedMinRttMs[slot] = Math.min(slots.limitedMinRttMs[slot]!, rtt);
      }
    });
    const dropped = sim.dropped?.[phase.name] ?? 0;
    return {
      plan: phase,
      offered: admitted + limited + dropped,
      admitted,
      limited,
      refused: 0,
      networkErrors: 0,
      renewed: 0,
      tokenFailures: undefined,
      noToken: 0,
      dropped,
      unslotted: 0,
      retryAfterValid: limited > 0 ? 1 : undefined,
      retryAfterMax: limited > 0 ? 1 : undefined,
      roundTrips: { minMs: rttMin, p99Ms: rttMax, maxMs: rttMax },
      startLagMs: { p99: 0, max: 0 },
      slots: { ...slots, limitedMinRttMs: slots.limitedMinRttMs.map((v) => (Number.isFinite(v) ? v : 0)) },
    };
  });
  return {
    target: target.base_url,
    generatedAt: '',
    instances: 1,
    lateMs: [0],
    preflightRequests: {},
    phases: results,
  };
};
