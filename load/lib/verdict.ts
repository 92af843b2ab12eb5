// Results of a load run and how each phase is judged. Pure TypeScript: k6's handleSummary uses it for a single
// instance, the harness CLI for the merged results of several.
import type { PhasePlan } from './plan.ts';

export interface PhaseResult {
  readonly plan: PhasePlan;
  readonly offered: number;
  readonly admitted: number;
  readonly limited: number;
  readonly refused: number;
  readonly dropped: number;
  /** Share of the 429s whose Retry-After was integer seconds within the window; undefined with no 429. */
  readonly retryAfterValid: number | undefined;
  readonly retryAfterMax: number | undefined;
  /** Per chart slot (plan.slotMs wide), from the phase's start. */
  readonly slots: { readonly admitted: readonly number[]; readonly limited: readonly number[] };
}

export interface LoadSummary {
  readonly target: string;
  readonly generatedAt: string;
  readonly instances: number;
  readonly phases: readonly PhaseResult[];
}

export interface Verdict {
  readonly ok: boolean;
  /** The limit actually enforced per window (over and knee phases), next to SPEC.md's. */
  readonly enforcedPerWindow?: number;
  readonly message: string;
}

const TOLERANCE = 0.01;

export const perSecond = (count: number, plan: PhasePlan): number => count / (plan.durationMs / 1000);

/** `30 / minute`, or with a test server's shortened minute `30 / minute (2 s windows)`. */
export const describeLimit = ({ limit }: PhasePlan): string =>
  `${limit.count} / ${limit.per}${limit.per === 'minute' && limit.windowMs !== 60_000 ? ` (${limit.windowMs / 1000} s windows)` : ''}`;

/**
 * The limit actually enforced, read from the limiter's own rhythm rather than from clock windows (which rarely
 * line up with the limiter's): under saturation each limiter window admits a run of requests, then refuses until
 * it ends. Walking the slots: while admitting, a slot with refusals ends the run (its admissions came first);
 * while refusing, a slot with admissions starts the next run (its refusals came first). The first run may be
 * partial and is dropped; the median of the complete runs is the enforced limit (0 if nothing was refused).
 */
export const enforcedPerWindow = (result: PhaseResult): number => {
  const { admitted, limited } = result.slots;
  const runs: number[] = [];
  let current = 0;
  let complete = false;
  let refusing = false;
  for (let i = 0; i < admitted.length; i++) {
    const a = admitted[i] ?? 0;
    const l = limited[i] ?? 0;
    if (refusing && a > 0) {
      if (complete) runs.push(current);
      complete = true;
      current = a;
      refusing = false;
    } else {
      current += a;
      if (l > 0) refusing = true;
    }
  }
  if (complete && refusing) runs.push(current);
  runs.sort((x, y) => x - y);
  return runs.length === 0 ? 0 : runs[Math.floor(runs.length / 2)]!;
};

const problems = (result: PhaseResult): string[] => [
  ...(result.refused > 0
    ? [`${result.refused} requests refused other than with 429 (token or server errors)`]
    : []),
  ...(result.dropped > 0
    ? [`${result.dropped} iterations dropped: too few VUs, the offered rate was not reached`]
    : []),
];

export const judge = (result: PhaseResult): Verdict => {
  const { plan } = result;
  const trouble = problems(result);
  const spec = describeLimit(plan);
  if (plan.phase === 'within') {
    if (result.limited > 0)
      trouble.unshift(
        `${result.limited} requests got 429 at ${Math.round((plan.offeredPerWindow / plan.limit.count) * 100)} % of the limit`,
      );
    return {
      ok: trouble.length === 0,
      message: trouble.join('; ') || `no 429 at ${result.admitted} admitted requests`,
    };
  }
  const enforced = enforcedPerWindow(result);
  if (plan.phase === 'knee') {
    // 1 %, or one request where the limit is small: the knee cannot resolve less (see enforcedPerWindow).
    if (Math.abs(enforced - plan.limit.count) > Math.max(1, plan.limit.count * TOLERANCE))
      trouble.unshift(`enforced ${enforced} per window, SPEC.md says ${spec}`);
    return {
      ok: trouble.length === 0,
      enforcedPerWindow: enforced,
      message: trouble.join('; ') || `enforced ${enforced} per window (SPEC.md: ${spec})`,
    };
  }
  const off = Math.abs(result.admitted - plan.expectedAdmitted) / Math.max(1, plan.expectedAdmitted);
  if (off > TOLERANCE) {
    trouble.unshift(
      `admitted ${perSecond(result.admitted, plan).toFixed(2)}/s, SPEC.md allows ${perSecond(plan.expectedAdmitted, plan).toFixed(2)}/s (${(off * 100).toFixed(1)} % off)`,
    );
  }
  if (result.limited === 0) trouble.push('no 429 at all while offered more than the limit');
  else if (result.retryAfterValid !== 1) {
    trouble.push(
      `${Math.round((1 - (result.retryAfterValid ?? 0)) * result.limited)} of ${result.limited} 429s without an integer Retry-After within the window`,
    );
  }
  return {
    ok: trouble.length === 0,
    enforcedPerWindow: enforced,
    message:
      trouble.join('; ') ||
      `admitted ${perSecond(result.admitted, plan).toFixed(2)}/s, within 1 % of ${spec}`,
  };
};

const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);
const addSlots = (lists: readonly (readonly number[])[]) =>
  Array.from({ length: Math.max(0, ...lists.map((l) => l.length)) }, (_, i) =>
    sum(lists.map((l) => l[i] ?? 0)),
  );

/** Several instances' results for the same plan, as one run. */
export const mergeSummaries = (summaries: readonly LoadSummary[]): LoadSummary => {
  const [first] = summaries;
  if (first === undefined) throw new Error('no summaries to merge');
  const phases = first.phases.map((phase, i) => {
    const parts = summaries.map((s) => s.phases[i]!);
    const limited = sum(parts.map((p) => p.limited));
    const validWeighted = sum(parts.map((p) => (p.retryAfterValid ?? 0) * p.limited));
    const maxima = parts.map((p) => p.retryAfterMax).filter((m): m is number => m !== undefined);
    return {
      plan: phase.plan,
      offered: sum(parts.map((p) => p.offered)),
      admitted: sum(parts.map((p) => p.admitted)),
      limited,
      refused: sum(parts.map((p) => p.refused)),
      dropped: sum(parts.map((p) => p.dropped)),
      retryAfterValid: limited === 0 ? undefined : validWeighted / limited,
      retryAfterMax: maxima.length === 0 ? undefined : Math.max(...maxima),
      slots: {
        admitted: addSlots(parts.map((p) => p.slots.admitted)),
        limited: addSlots(parts.map((p) => p.slots.limited)),
      },
    };
  });
  return { target: first.target, generatedAt: new Date().toISOString(), instances: summaries.length, phases };
};
