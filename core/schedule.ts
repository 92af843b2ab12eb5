// A phase as a k6 arrival-rate executor, when k6 means to start each of its iterations (so a VU can tell how late
// it started one), and how many VUs the phase needs for a given round trip. Pure TypeScript.
import { offeredAt, type PhasePlan } from './plan.ts';

/** Rates k6 takes are whole iterations per time unit: the unit is the window times the first factor that works. */
const UNIT_FACTORS = [1, 2, 4, 5, 10, 20, 50, 100];

const timeUnitFactor = (rates: readonly number[]): number =>
  UNIT_FACTORS.find((f) => rates.every((r) => Math.abs(r * f - Math.round(r * f)) < 1e-9)) ?? 100;

export interface Arrival {
  readonly timeUnitMs: number;
  readonly startRate: number;
  readonly rate: number;
}

export const arrivalOf = (phase: PhasePlan): Arrival => {
  const factor = timeUnitFactor([phase.fromPerWindow, phase.offeredPerWindow]);
  return {
    timeUnitMs: phase.limit.windowMs * factor,
    startRate: Math.round(phase.fromPerWindow * factor),
    rate: Math.round(phase.offeredPerWindow * factor),
  };
};

/**
 * Milliseconds after the phase's start at which k6 schedules iteration `iteration` (0-based, counted across all
 * instances), by the arithmetic of k6's constant- and ramping-arrival-rate executors (lib/executor in k6 v2.2.0):
 * iteration i starts when the area under the rate curve reaches i + 1, minus one for a constant rate.
 */
export const scheduledMs = (phase: PhasePlan, iteration: number): number => {
  const { timeUnitMs, startRate, rate } = arrivalOf(phase);
  const to = rate / timeUnitMs;
  if (phase.rampMs === 0) return iteration / to;
  const from = startRate / timeUnitMs;
  const dur = phase.rampMs;
  const area = iteration + 1;
  const rampArea = dur * ((to - from) / 2 + from);
  if (area > rampArea) return dur + (area - rampArea) / to;
  return (
    (from * dur - Math.sqrt(Math.max(0, dur * (from * from * dur + 2 * area * (to - from))))) / (from - to)
  );
};

/** Never size for less than this: a server sharing a busy machine with k6 can take this long to answer. */
const MIN_LATENCY_MS = 250;

/**
 * Little's law: requests in flight = rate × time each takes. The time is sized as one and a half times the
 * measured round trip plus 50 ms (jitter, and a server slower under load than when idle), then a quarter more VUs
 * for headroom; k6 may start as many again when those run out. More would cost k6 CPU it needs for keeping time.
 * Never fewer than two VUs per instance, since an instance whose share rounds to no VU silently sends nothing.
 */
export const vusFor = (phase: PhasePlan, roundTripMs: number, instances: number) => {
  const perSecond = (offeredAt(phase, phase.durationMs) * 1000) / phase.limit.windowMs;
  const latencyMs = Math.max(MIN_LATENCY_MS, 1.5 * roundTripMs + 50);
  const preAllocatedVUs = Math.max(2 * instances, Math.ceil((perSecond * latencyMs * 1.25) / 1000) + 2);
  return { preAllocatedVUs, maxVUs: 2 * preAllocatedVUs };
};

/** How long k6 lets a phase's last requests finish: phases of one bucket follow each other closely. */
export const gracefulStopMs = (roundTripMs: number) => Math.max(2000, 4 * roundTripMs);
