// Where in a window the probe's wait polls land: drawn from a seed the report records, so that no fixed slice of a
// window hides from every run, and one run's phases come back with `--seed` (mulberry32: tiny, and enough to spread
// a few polls; nothing here needs a cryptographic generator).
import { randomInt } from 'node:crypto';

/** The largest seed a run takes and a report records (`--seed`, the report's `seed`). */
export const MAX_SEED = 2 ** 31 - 1;

/** A seed for a run that was given none. */
export const newSeed = (): number => randomInt(1, MAX_SEED + 1);

/** Numbers in [0, 1), the same sequence for the same seed. */
export const seededRandom = (seed: number): (() => number) => {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
};
