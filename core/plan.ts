// The plan k6 runs, as harness hands it over (LoadSettings.plan, load-env.ts): every decision about the target
// (which probes its profile allows, the limit each faces, the token request of each client) is taken in Node by
// src/k6-driver/plan.ts from the same resolved target the conformance checks use, so no rule is written twice. Here
// only its shape, and what a phase offers when (needed by the k6 schedule, the verdicts and the charts alike).

export type Phase = 'within' | 'over' | 'knee';

/** One k6 scenario: a phase of one probe. */
export interface PhasePlan {
  /** k6 scenario name, e.g. `over_transactions`. */
  readonly name: string;
  readonly probe: string;
  readonly phase: Phase;
  readonly bucket: string;
  /** Phases with the same key meet one limiter state: the bucket, kept per tenant (SPEC.md §8 rule 1). */
  readonly limiterKey: string;
  readonly endpoints: readonly string[];
  /** The client each request uses, by role: several roles alternate (tenant-sharing). */
  readonly clients: readonly string[];
  readonly limit: { readonly count: number; readonly per: 'second' | 'minute'; readonly windowMs: number };
  /** Requests offered per window: `fromPerWindow` at the start, climbing over `rampMs` to `offeredPerWindow`. */
  readonly fromPerWindow: number;
  readonly offeredPerWindow: number;
  readonly rampMs: number;
  readonly startMs: number;
  readonly durationMs: number;
  /** Width of one evidence slot (a fiftieth of the window); startMs is a multiple of it. */
  readonly slotMs: number;
}

export interface ProbePlanSet {
  readonly probes: readonly { name: string; describes: string; phases: readonly PhasePlan[] }[];
  readonly totalMs: number;
}

/** What harness sends before k6 starts, or what each k6 instance fetches itself when run without harness. */
export interface PreflightPlan {
  /** Client roles to fetch a token for, in order: each once, then primary again until there are enough timings. */
  readonly tokenRequests: readonly string[];
  /** Path ids taken from an endpoint's answer: name, the endpoint that issues it, where in the body. */
  readonly idSources: readonly { name: string; from: string; pointer: string }[];
  /** Path ids the profile gives as fixed values. */
  readonly fixedIds: Readonly<Record<string, string>>;
  /** The API call that measures a round trip when no id fetch does. */
  readonly timedCall: string | undefined;
  /** API requests per limiter key (see PhasePlan.limiterKey), made shortly before the first phase. */
  readonly requestsPerLimiter: Readonly<Record<string, number>>;
}

/** A client's token request without its secret (that travels in LoadSettings.secrets, read when a VU needs it). */
export interface K6TokenRequest {
  readonly client_id: string;
  readonly scope: string;
}

/** LoadSettings.plan: the resolved plan, its pre-flight, and the token request of every client role it uses. */
export interface K6Plan extends ProbePlanSet {
  readonly preflight: PreflightPlan;
  readonly clients: Readonly<Record<string, K6TokenRequest>>;
}

/** Requests per window offered `atMs` into the phase. */
export const offeredAt = (phase: PhasePlan, atMs: number): number =>
  phase.rampMs === 0 || atMs >= phase.rampMs
    ? phase.offeredPerWindow
    : phase.fromPerWindow +
      ((phase.offeredPerWindow - phase.fromPerWindow) * Math.max(0, atMs)) / phase.rampMs;
