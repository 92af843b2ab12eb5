// Which k6 scenarios a run has and what each expects, decided from the resolved target (src/profile/target.ts: the
// limits after the profile's overrides, the endpoints `side_effects` allows), the one the conformance checks use.
// k6 gets the result as data (core/plan.ts), so no rule about the target is written twice.
import type { K6Plan, Phase, PhasePlan, ProbePlanSet } from '../../core/plan.ts';
import { InputError } from '../errors.ts';
import type { Target } from '../profile/target.ts';
import type { Limit } from '../spec/index.ts';
import { scopeFor } from '../spec/index.ts';
import { planPreflight } from './preflight-plan.ts';
import { availableProbes, PROBE_NAMES } from './probes.ts';

/**
 * Offered rates as shares of the limit. OVER spends a full token bucket within one window (2N offered, N
 * refilled), and never offers fewer than four a window, so a tiny limit is refused often enough to read it.
 */
const WITHIN = 0.9;
const OVER = 2;
const OVER_AT_LEAST = 4;
const KNEE_FROM = 0.5;
/** The other tenant's rate beside a held tenant: far enough below its limit that one 429 proves a shared limit. */
const BESIDE = 0.5;
/** The held tenant in tenant-isolation: over its limit, light on the load generator. */
const HELD = 1.2;
/** Slots per window: the resolution of the evidence (see verdict.ts). */
const SLOTS_PER_WINDOW = 50;

/**
 * Phase lengths in windows. Per-second limits are cheap to watch for many windows; per-minute phases are as short
 * as the estimator allows, since they set the length of a whole run: within spans a window and a fifth, over leaves
 * 1.5 windows after a full token bucket is spent, the knee climbs for two windows and holds for one.
 */
const WINDOWS = {
  second: { within: 5, over: 8, knee: 10, shared: 5 },
  minute: { within: 1.2, over: 2.5, knee: 3, shared: 2.5 },
} as const;

/**
 * The fewest windows each phase needs, whatever --duration says: within spans a window whole, over outlasts a full
 * token bucket (one window at twice the limit) by more than a window, and a knee climbs for two and holds for one.
 */
const MIN_WINDOWS: Readonly<Record<Phase, number>> = { within: 1.2, over: 2.5, knee: 3 };

export interface PlanOptions {
  /** Probe names, or ['all']. */
  readonly scenarios: readonly string[];
  /** Length of every phase, at least what its verdict needs (see MIN_WINDOWS). */
  readonly durationMs?: number;
  /** Requests per window for the `over` phase instead of twice the limit. */
  readonly rate?: number;
}

const tenantOf = (target: Target, role: string): string => {
  const client = target.profile.clients[role as keyof Target['profile']['clients']];
  return (client && 'tenant' in client ? client.tenant : undefined) ?? target.profile.tenant;
};

interface PhaseShape {
  readonly phase: Phase;
  readonly from: number;
  readonly to: number;
  readonly windows: number;
  readonly clients: readonly string[];
  readonly suffix?: string;
  /** Runs beside the previous shape (another tenant), not after it. */
  readonly beside?: boolean;
  /** Sends to the bucket's first endpoint only, not round-robin over all of them. */
  readonly oneEndpoint?: boolean;
}

const shapesOf = (
  probe: string,
  limit: Limit,
  lengths: (typeof WINDOWS)['second' | 'minute'],
  options: PlanOptions,
): PhaseShape[] => {
  const n = limit.count;
  // A limit of one per window is probed within at 0.9 per window: one request every 1.11 windows.
  const within = Math.floor(n * WITHIN) || WITHIN;
  const saturating = Math.max(OVER_AT_LEAST, Math.ceil(n * OVER));
  const over = options.rate ?? saturating;
  const primary = ['primary'];
  if (probe === 'tenant-sharing') {
    return [
      { phase: 'over', from: over, to: over, windows: lengths.shared, clients: ['primary', 'same_tenant'] },
    ];
  }
  if (probe === 'tenant-isolation') {
    const held = Math.max(n + 1, Math.ceil(n * HELD));
    return [
      { phase: 'over', from: held, to: held, windows: lengths.shared, clients: primary },
      {
        phase: 'within',
        from: Math.floor(n * BESIDE) || BESIDE,
        to: Math.floor(n * BESIDE) || BESIDE,
        windows: lengths.shared,
        clients: ['other_tenant'],
        suffix: '_beside',
        beside: true,
      },
    ];
  }
  // Round-robin spending fills separate shares evenly, so they look like one shared limit: the knee goes through one
  // endpoint, which must get the whole of it too (SPEC.md §8: one limit shared by all, not applied separately).
  const oneEndpoint = probe === PROBE_NAMES.observability;
  return [
    { phase: 'within', from: within, to: within, windows: lengths.within, clients: primary },
    { phase: 'over', from: over, to: over, windows: lengths.over, clients: primary },
    {
      phase: 'knee',
      from: Math.floor(n * KNEE_FROM) || KNEE_FROM,
      to: saturating,
      windows: lengths.knee,
      clients: primary,
      ...(oneEndpoint ? { suffix: '_one-endpoint', oneEndpoint } : {}),
    },
  ];
};

/** Round up to a whole number of slots, so every phase of a limiter shares one slot grid. */
const onGrid = (ms: number, slotMs: number) => Math.ceil(ms / slotMs - 1e-9) * slotMs;

export const planProbes = (target: Target, options: PlanOptions): ProbePlanSet => {
  const all = availableProbes(target);
  const wanted = options.scenarios.includes('all') ? all.map((p) => p.name) : options.scenarios;
  const unknown = wanted.filter((name) => !all.some((p) => p.name === name));
  if (unknown.length > 0) {
    throw new InputError(
      `--scenario: unknown or unavailable scenario: ${unknown.join(', ')} (available: ${all.map((p) => p.name).join(', ')})`,
    );
  }
  // Phases of one bucket follow one another with only a short gap (answers of one phase arrive before the next
  // begins); different buckets run side by side.
  const nextStart = new Map<string, number>();
  const probes = all
    .filter((p) => wanted.includes(p.name))
    .map((probe) => {
      const { count, per, windowMs } = target.limitOf(probe.bucket);
      const limit = { count, per };
      const slotMs = windowMs / SLOTS_PER_WINDOW;
      const lengths = WINDOWS[windowMs <= 1000 ? 'second' : 'minute'];
      const gapMs = onGrid(Math.max(500, slotMs), slotMs);
      const endpoints = target.endpointsIn(probe.bucket).map((e) => e.key);
      let start = nextStart.get(probe.bucket) ?? 0;
      let previous: PhasePlan | undefined;
      const phases = shapesOf(probe.name, limit, lengths, options).map((shape) => {
        const knee = shape.phase === 'knee';
        const defaultMs = shape.windows * windowMs;
        const chosen = options.durationMs ?? defaultMs;
        const durationMs = onGrid(Math.max(chosen, MIN_WINDOWS[shape.phase] * windowMs), slotMs);
        const startMs = shape.beside && previous ? previous.startMs : start;
        const plan: PhasePlan = {
          name: `${shape.phase}_${probe.name}${shape.suffix ?? ''}`,
          probe: probe.name,
          phase: shape.phase,
          bucket: probe.bucket,
          limiterKey: `${probe.bucket}/${tenantOf(target, shape.clients[0]!)}`,
          endpoints: shape.oneEndpoint ? endpoints.slice(0, 1) : endpoints,
          clients: shape.clients,
          limit: { ...limit, windowMs },
          fromPerWindow: shape.from,
          offeredPerWindow: shape.to,
          rampMs: knee ? onGrid((durationMs * 2) / 3, slotMs) : 0,
          startMs,
          durationMs,
          slotMs,
        };
        start = Math.max(start, startMs + durationMs + gapMs);
        previous = plan;
        return plan;
      });
      nextStart.set(probe.bucket, start);
      return { name: probe.name, describes: probe.describes, phases };
    });
  const shifted = afterShorterMinutes(probes);
  const totalMs = Math.max(0, ...shifted.flatMap((p) => p.phases.map((ph) => ph.startMs + ph.durationMs)));
  return { probes: shifted, totalMs };
};

const endOf = (phases: readonly PhasePlan[]) => Math.max(0, ...phases.map((p) => p.startMs + p.durationMs));

/**
 * Against real minutes the per-minute phases outlast the per-second ones by far and offer a few requests a second,
 * so everything runs side by side. Against a test server's shortened minutes they offer hundreds a second and end
 * first: the per-second phases then wait for them, so their rates never add up on one load generator.
 */
const afterShorterMinutes = (probes: ProbePlanSet['probes']): ProbePlanSet['probes'] => {
  const perSecond = (p: PhasePlan) => p.limit.windowMs <= 1000;
  const all = probes.flatMap((p) => p.phases);
  const minutesEnd = endOf(all.filter((p) => !perSecond(p)));
  if (minutesEnd === 0 || minutesEnd >= endOf(all.filter(perSecond))) return probes;
  return probes.map((probe) => ({
    ...probe,
    phases: probe.phases.map((p) =>
      perSecond(p) ? { ...p, startMs: p.startMs + onGrid(minutesEnd + 500, p.slotMs) } : p,
    ),
  }));
};

/** What k6 is handed as LoadSettings.plan: the plan, its pre-flight, each client's token request without secret. */
export const k6PlanFor = (target: Target, options: PlanOptions): K6Plan => {
  const plan = planProbes(target, options);
  const phases = plan.probes.flatMap((p) => p.phases);
  const roles = [...new Set(phases.flatMap((p) => p.clients))];
  const clients = Object.fromEntries(
    roles.map((role) => {
      const client = target.profile.clients[role as keyof Target['profile']['clients']];
      if (client === undefined) throw new Error(`the profile has no clients.${role}`);
      return [role, { client_id: client.client_id, scope: scopeFor(tenantOf(target, role)) }];
    }),
  );
  return { ...plan, preflight: planPreflight(target, phases), clients };
};
