// Which k6 scenarios a run has and what each expects, derived from the spec data (spec.generated.json) and the
// target's profile. Pure TypeScript with no k6 or Node imports: the k6 script builds its options from it, and the
// harness CLI lists scenarios and judges merged results with the same code.

export interface SpecLimit {
  readonly count: number;
  readonly per: 'second' | 'minute';
}
export interface SpecBucket {
  readonly id: string;
  readonly limit: SpecLimit;
}
export interface SpecEndpoint {
  readonly key: string;
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly bucket: string;
  readonly pathIds: readonly string[];
  readonly sideEffects: boolean;
}
export interface SpecData {
  readonly buckets: Readonly<Record<string, SpecBucket>>;
  readonly endpoints: readonly SpecEndpoint[];
}

/** The part of a harness profile the load scripts read (secrets travel separately, see config.ts). */
export interface LoadTarget {
  readonly base_url: string;
  readonly auth_url: string;
  readonly tenant: string;
  readonly clients: Readonly<Record<string, { client_id: string; tenant?: string }>>;
  readonly observability?: readonly string[];
  readonly requests?: Readonly<Record<string, { body?: unknown; query?: Record<string, string> }>>;
  readonly ids?: Readonly<Record<string, { from?: string; pointer?: string; value?: string }>>;
  readonly side_effects?: 'allow' | 'deny' | readonly string[];
  readonly limits?: Readonly<Record<string, SpecLimit>>;
  readonly minute_ms?: number;
}

export type Phase = 'within' | 'over' | 'knee';

/** One k6 scenario: a phase of one probe. */
export interface PhasePlan {
  /** k6 scenario name, e.g. `over_transactions`. */
  readonly name: string;
  readonly probe: string;
  readonly phase: Phase;
  readonly bucket: string;
  readonly endpoints: readonly string[];
  /** The client each request uses, by role: several roles alternate (tenant-sharing). */
  readonly clients: readonly string[];
  readonly limit: SpecLimit & { readonly windowMs: number };
  /** Requests offered per window (for knee: at the end of the ramp, which starts at `fromPerWindow`). */
  readonly offeredPerWindow: number;
  readonly fromPerWindow: number;
  readonly startMs: number;
  readonly durationMs: number;
  /** Requests the limit lets through in this phase if it holds exactly (within: all offered). */
  readonly expectedAdmitted: number;
  /** Width of one point of the admitted/limited chart: a second, or a window for long phases. */
  readonly slotMs: number;
}

export interface ProbePlanSet {
  readonly probes: readonly { name: string; describes: string; phases: readonly PhasePlan[] }[];
  readonly totalMs: number;
}

/** Friendly probe names for the buckets; `--scenario` takes these. */
export const PROBE_NAMES: Readonly<Record<string, string>> = {
  'transaction-event': 'transactions',
  'rules-rerun': 'rerun',
  'rules-schedule': 'schedule',
  'batch-upload-url': 'upload-url',
  'batch-status': 'batch-status',
  'batch-validation-result': 'validation-result',
  'rules-execute': 'execute',
  'rules-status': 'rule-status',
  observability: 'observability-shared',
};

/** Longer phases are charted per window, so a run never declares thousands of per-slot submetrics. */
const MAX_SECOND_SLOTS = 120;
const WITHIN = 0.9;
const OVER = 1.3;
const KNEE_FROM = 0.5;
const KNEE_TO = 2;

export const windowMsOf = (limit: SpecLimit, target: LoadTarget): number =>
  limit.per === 'second' ? 1000 : (target.minute_ms ?? 60_000);

const effectiveLimit = (spec: SpecData, target: LoadTarget, bucket: string): SpecLimit => {
  const overrides = target.limits ?? {};
  const byEndpoint = spec.endpoints.find((e) => e.bucket === bucket && overrides[e.key] !== undefined);
  return (
    overrides[bucket] ?? (byEndpoint ? overrides[byEndpoint.key] : undefined) ?? spec.buckets[bucket]!.limit
  );
};

export const mayCall = (target: LoadTarget, endpoint: SpecEndpoint): boolean => {
  const policy = target.side_effects ?? 'allow';
  if (!endpoint.sideEffects || policy === 'allow') return true;
  return Array.isArray(policy) && policy.includes(endpoint.key);
};

export interface PlanOptions {
  /** Probe names, or ['all']. */
  readonly scenarios: readonly string[];
  /** Phase length; default: 10 s for per-second limits, three windows for longer ones. */
  readonly durationMs?: number;
  /** Requests per window for the `over` phase instead of 130 % of the limit. */
  readonly rate?: number;
}

const endpointsOf = (spec: SpecData, target: LoadTarget, bucket: string): SpecEndpoint[] =>
  bucket === 'observability'
    ? (target.observability ?? []).map((key) => ({
        key,
        method: key.split(' ')[0] as 'GET',
        path: key.slice(key.indexOf(' ') + 1),
        bucket,
        pathIds: [],
        sideEffects: false,
      }))
    : spec.endpoints.filter((e) => e.bucket === bucket);

/** Every probe this target allows, before selection; `describes` is what --list prints. */
export const availableProbes = (spec: SpecData, target: LoadTarget) => {
  const probes: { name: string; bucket: string; clients: string[]; describes: string }[] = [];
  for (const [bucket, name] of Object.entries(PROBE_NAMES)) {
    const endpoints = endpointsOf(spec, target, bucket);
    if (endpoints.length === 0 || !endpoints.every((e) => mayCall(target, e))) continue;
    const limit = effectiveLimit(spec, target, bucket);
    probes.push({
      name,
      bucket,
      clients: ['primary'],
      describes: `${endpoints.map((e) => e.key).join(', ')}: ${limit.count} / ${limit.per}`,
    });
  }
  // Two apps of one tenant together held to one limit; another tenant beside them unaffected (SPEC.md §8 rule 1).
  const schedule = effectiveLimit(spec, target, 'rules-schedule');
  if (target.clients.same_tenant) {
    probes.push({
      name: 'tenant-sharing',
      bucket: 'rules-schedule',
      clients: ['primary', 'same_tenant'],
      describes: `primary and same_tenant together on GET /api/rules/schedule: ${schedule.count} / ${schedule.per}`,
    });
  }
  if (target.clients.other_tenant) {
    probes.push({
      name: 'tenant-isolation',
      bucket: 'rules-schedule',
      clients: ['other_tenant'],
      describes: `other_tenant on GET /api/rules/schedule while primary is limited: its own ${schedule.count} / ${schedule.per}`,
    });
  }
  return probes;
};

export const planProbes = (spec: SpecData, target: LoadTarget, options: PlanOptions): ProbePlanSet => {
  const all = availableProbes(spec, target);
  const wanted = options.scenarios.includes('all') ? all.map((p) => p.name) : options.scenarios;
  const unknown = wanted.filter((name) => !all.some((p) => p.name === name));
  if (unknown.length > 0) {
    throw new Error(
      `unknown or unavailable scenario: ${unknown.join(', ')} (available: ${all.map((p) => p.name).join(', ')})`,
    );
  }
  // Probes of one bucket share its limit, so they run one after another; different buckets run side by side.
  const nextStart = new Map<string, number>();
  const probes = all
    .filter((p) => wanted.includes(p.name))
    .map((probe) => {
      const limit = effectiveLimit(spec, target, probe.bucket);
      const windowMs = windowMsOf(limit, target);
      const durationMs = options.durationMs ?? (limit.per === 'second' ? 10_000 : 3 * windowMs);
      const windows = durationMs / windowMs;
      const endpoints = endpointsOf(spec, target, probe.bucket).map((e) => e.key);
      // A window's pause between phases, so each phase starts with a fresh window.
      let start = nextStart.get(probe.bucket) ?? 0;
      interface PhaseShape {
        kind: Phase;
        offered: number;
        expectedPerWindow: number;
        clients?: readonly string[];
        from?: number;
        length?: number;
        /** Runs alongside the previous phase instead of after it. */
        alongside?: boolean;
      }
      const phase = ({
        kind,
        offered,
        expectedPerWindow,
        clients,
        from,
        length = durationMs,
        alongside,
      }: PhaseShape) => {
        if (alongside) start -= length + windowMs;
        const plan: PhasePlan = {
          name: `${kind}_${probe.name}${alongside ? '_beside' : ''}`,
          probe: probe.name,
          phase: kind,
          bucket: probe.bucket,
          endpoints,
          clients: clients ?? probe.clients,
          limit: { ...limit, windowMs },
          offeredPerWindow: offered,
          fromPerWindow: from ?? offered,
          startMs: start,
          durationMs: length,
          expectedAdmitted: Math.round(expectedPerWindow * (length / windowMs)),
          // The knee is read from the limiter's own rhythm (see enforcedPerWindow): a tenth of a window shows it.
          slotMs:
            kind === 'knee'
              ? Math.min(1000, Math.max(100, windowMs / 10))
              : length <= MAX_SECOND_SLOTS * 1000
                ? 1000
                : windowMs,
        };
        start += length + windowMs;
        return plan;
      };
      // A limit of one per window is probed within at one request every other window.
      const withinRate = Math.floor(limit.count * WITHIN) || 0.5;
      const overRate = options.rate ?? Math.max(limit.count + 1, Math.ceil(limit.count * OVER));
      const within = { kind: 'within', offered: withinRate, expectedPerWindow: withinRate } as const;
      const over = { kind: 'over', offered: overRate, expectedPerWindow: limit.count } as const;
      const knee = {
        kind: 'knee',
        offered: Math.ceil(limit.count * KNEE_TO),
        from: Math.max(1, Math.floor(limit.count * KNEE_FROM)),
        expectedPerWindow: limit.count,
        length: Math.max(durationMs, 4 * windowMs),
      } as const;
      const shapes: PhaseShape[] =
        probe.name === 'tenant-sharing'
          ? [over]
          : probe.name === 'tenant-isolation'
            ? // The primary client is held over its limit while the other tenant stays within its own.
              [
                { ...over, clients: ['primary'] },
                { ...within, alongside: true },
              ]
            : [within, over, knee];
      const phases = shapes.map(phase);
      nextStart.set(probe.bucket, start);
      return { name: probe.name, describes: probe.describes, phases, windows };
    });
  const totalMs = Math.max(0, ...probes.flatMap((p) => p.phases.map((ph) => ph.startMs + ph.durationMs)));
  return { probes, totalMs };
};
