// All the evidence about one limiter state (a bucket of one tenant) on one slot grid: phases of a bucket follow each
// other closely and share windows, so a verdict about one phase must count its neighbours' requests too.
import { type LoadSummary, mergeSlots, type PhaseResult, type SlotEvidence } from './evidence.ts';

export interface Timeline {
  readonly key: string;
  readonly slotMs: number;
  readonly windowMs: number;
  /** SPEC.md's count per window (or the profile's override). */
  readonly limit: number;
  /** Slot 0 is time 0 of the plan. */
  readonly slots: SlotEvidence;
  /**
   * Requests that may have spent this limit but cannot be placed in time: harness's pre-flight, answers with
   * other statuses, requests never answered or sent too late to fit a slot, 401s sent again with a new token. A proof that few were admitted
   * counts all of them as admitted anywhere.
   */
  readonly unplaced: number;
  /** Running sums of `slots.admitted`: admitted in slots [a, b) is prefix[b] - prefix[a]. */
  readonly prefix: readonly number[];
}

/** The slots [first, end) a phase occupies on its timeline. */
export const slotRange = (result: PhaseResult): { first: number; end: number } => {
  const first = Math.round(result.plan.startMs / result.plan.slotMs);
  return { first, end: first + result.slots.admitted.length };
};

const shifted = (result: PhaseResult): SlotEvidence => {
  const pad = (values: readonly number[]) => [
    ...Array.from({ length: slotRange(result).first }, () => 0),
    ...values,
  ];
  const { slots } = result;
  return {
    admitted: pad(slots.admitted),
    limited: pad(slots.limited),
    admittedMaxRttMs: pad(slots.admittedMaxRttMs),
    limitedMinRttMs: pad(slots.limitedMinRttMs),
  };
};

export const timelinesOf = (summary: LoadSummary): Map<string, Timeline> => {
  const byKey = new Map<string, PhaseResult[]>();
  for (const phase of summary.phases) {
    const list = byKey.get(phase.plan.limiterKey) ?? [];
    list.push(phase);
    byKey.set(phase.plan.limiterKey, list);
  }
  const timelines = new Map<string, Timeline>();
  for (const [key, phases] of byKey) {
    const slots = mergeSlots(phases.map(shifted));
    const prefix = [0];
    for (const a of slots.admitted) prefix.push(prefix[prefix.length - 1]! + a);
    const { plan } = phases[0]!;
    timelines.set(key, {
      key,
      slotMs: plan.slotMs,
      windowMs: plan.limit.windowMs,
      limit: plan.limit.count,
      slots,
      unplaced:
        (summary.preflightRequests[key] ?? 0) +
        phases.reduce((n, p) => n + p.refused + p.networkErrors + p.unslotted + p.renewed, 0),
      prefix,
    });
  }
  return timelines;
};
