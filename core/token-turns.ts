// One bound on the token requests of a whole run, kept by VUs that share no memory: the run's time from its common
// start is cut into ticks of 1/TOKEN_REQUESTS_PER_SECOND s, dealt round-robin to every VU the plan can have across
// every instance, and a VU sends a token request only on a tick of its own it has not used yet (the latest one).
// Each tick serves at most one request, so t seconds into the run the VUs have sent at most 1 + R·t token
// requests, however many VUs there are and however the token endpoint fails. Pure TypeScript.
import type { PhasePlan } from './plan.ts';
import { vusFor } from './schedule.ts';

/** R: token requests per second, the whole run's, across every VU of every instance. */
export const TOKEN_REQUESTS_PER_SECOND = 10;

/**
 * How many VUs a run can have, over all its instances: k6 starts at most a phase's maxVUs for it, split between
 * instances by execution segment (none gets more than its share rounded up).
 */
export const runVus = (phases: readonly PhasePlan[], roundTripMs: number, instances: number): number =>
  instances *
  phases.reduce((n, phase) => n + Math.ceil(vusFor(phase, roundTripMs, instances).maxVUs / instances), 0);

/** How long a VU waits between its turns when `vus` VUs share `perSecond` token requests a second. */
export const turnPeriodMs = (vus: number, perSecond = TOKEN_REQUESTS_PER_SECOND): number =>
  vus * (1000 / perSecond);

export interface TokenTurns {
  /** Takes this VU's latest turn at `now` (epoch ms) if it has one unused; false otherwise. */
  take(now: number): boolean;
}

/**
 * The turns of VU `vu` (0-based across instances) of `vus`, counted from `originMs`, the run's common start. A VU
 * numbered beyond `vus` shares another's turns: the plan's count is an upper bound, so that does not happen.
 */
export const tokenTurns = (
  vu: number,
  vus: number,
  originMs: number,
  perSecond = TOKEN_REQUESTS_PER_SECOND,
): TokenTurns => {
  const tickMs = 1000 / perSecond;
  const periodMs = turnPeriodMs(vus, perSecond);
  const firstMs = originMs + (vu % vus) * tickMs;
  let used = -1;
  return {
    take: (now) => {
      if (now < firstMs) return false;
      const latest = Math.floor((now - firstMs) / periodMs);
      if (latest <= used) return false;
      used = latest;
      return true;
    },
  };
};

/**
 * Which instance a k6 process is, from 0, by its execution segment: where the segment starts in the sequence (k6
 * gives both in lowest terms, `1/4:1/2` of `0,1/4,1/2,3/4,1`). Without a segment and its sequence, the only one.
 */
export const instanceOfSegment = (segment: string | undefined, sequence: string | undefined): number => {
  if (!segment || !sequence) return 0;
  const index = sequence.split(',').indexOf(segment.split(':')[0]!);
  if (index < 0) throw new Error(`execution segment ${segment} does not start on the sequence ${sequence}`);
  return index;
};
