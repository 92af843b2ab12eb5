// Each limiter kind against its defining property (docs/conformance.md, "The reference server"), driven by an
// injected clock, and every kind's wait checked to be exact on random request times.
import { describe, expect, it } from 'vitest';
import { racyCounter } from '../../src/reference/limit-faults.ts';
import { retryAfterFor } from '../../src/reference/limiter.ts';
import { createLimitState, LIMITER_KINDS, type LimiterKind } from '../../src/reference/limiter-kinds.ts';

/** 2026-01-01T00:00:00Z: a whole minute, like the epoch clock the server runs on. */
const T0 = 1_767_225_600_000;
const SECOND = 1000;
const MINUTE = 60_000;
const retryAfter = retryAfterFor(undefined);

/** Admits `n` requests at `at`; returns the waits (0 = admitted). */
const burst = (state: { admit(now: number): number }, n: number, at: number): number[] =>
  Array.from({ length: n }, () => state.admit(at));
const admittedOf = (waits: readonly number[]): number => waits.filter((w) => w === 0).length;

describe('anchored: a fixed window opened by the first request', () => {
  it('admits count requests, then reports the time left until the window ends', () => {
    const state = createLimitState('anchored', 3, SECOND);
    expect([state.admit(500), state.admit(600), state.admit(1499)]).toEqual([0, 0, 0]);
    expect(state.admit(1499)).toBe(1);
    expect(state.admit(1000)).toBe(500);
  });

  it('opens the next window at the first request after the previous one ended, then admits count at once', () => {
    const state = createLimitState('anchored', 2, SECOND);
    expect(burst(state, 3, 0)).toEqual([0, 0, 1000]);
    expect(state.admit(999)).toBe(1);
    expect(burst(state, 3, 5000)).toEqual([0, 0, 1000]);
    expect(state.admit(5999)).toBe(1);
    expect(burst(state, 2, 6000)).toEqual([0, 0]);
  });
});

describe('aligned: fixed windows on the clock', () => {
  it('admits up to 2N across an edge', () => {
    const state = createLimitState('aligned', 5, SECOND);
    expect(admittedOf(burst(state, 6, T0 + 900))).toBe(5);
    expect(admittedOf(burst(state, 6, T0 + 1000))).toBe(5);
  });

  it('counts Retry-After down to the boundary, whenever the window was first used', () => {
    const state = createLimitState('aligned', 1, MINUTE);
    expect(state.admit(T0 + 1000)).toBe(0);
    expect(retryAfter(state.admit(T0 + 1000), 0, 60_000)).toBe('59');
    expect(retryAfter(state.admit(T0 + 30_500), 0, 60_000)).toBe('30');
    expect(retryAfter(state.admit(T0 + 59_999), 0, 60_000)).toBe('1');
    expect(state.admit(T0 + MINUTE)).toBe(0);
  });
});

describe('sliding log', () => {
  it('returns capacity one request at a time, as each admitted one leaves the window', () => {
    const state = createLimitState('sliding-log', 3, SECOND);
    expect([state.admit(T0), state.admit(T0 + 100), state.admit(T0 + 200)]).toEqual([0, 0, 0]);
    expect(state.admit(T0 + 500)).toBe(500);
    expect(burst(state, 2, T0 + 1000)).toEqual([0, 100]);
    expect(burst(state, 2, T0 + 1100)).toEqual([0, 100]);
    expect(burst(state, 2, T0 + 1200)).toEqual([0, 800]);
  });

  it('never admits more than N in any window-long interval, and admits whenever fewer are in it', () => {
    const random = seeded(7);
    const state = createLimitState('sliding-log', 4, SECOND);
    const admitted: number[] = [];
    let t = T0;
    for (let i = 0; i < 2000; i++) {
      t += Math.floor(random() * 400);
      const inWindow = admitted.filter((a) => a > t - SECOND).length;
      const wait = state.admit(t);
      expect(wait === 0).toBe(inWindow < 4);
      if (wait === 0) admitted.push(t);
    }
    expect(admitted.length).toBeGreaterThan(500);
  });
});

describe('token bucket', () => {
  it('admits a burst of N, then one request per W/N, with Retry-After the wait for one token', () => {
    const state = createLimitState('token-bucket', 30, MINUTE);
    expect(admittedOf(burst(state, 31, T0))).toBe(30);
    expect(state.admit(T0)).toBe(2000);
    expect(retryAfter(state.admit(T0 + 500), 0, 60_000)).toBe('2');
    expect(burst(state, 2, T0 + 2000)).toEqual([0, 2000]);
    expect(burst(state, 2, T0 + 4000)).toEqual([0, 2000]);
  });

  it('admits a whole burst of N when the window does not divide by N', () => {
    for (const [count, ms] of [
      [120, 2000],
      [6, 10_000],
      [7, 1000],
    ] as const) {
      expect(admittedOf(burst(createLimitState('token-bucket', count, ms), count + 1, T0))).toBe(count);
    }
  });

  it('holds N per window sustained after the burst, and refills to no more than N', () => {
    const state = createLimitState('token-bucket', 5, SECOND);
    expect(admittedOf(burst(state, 10, T0))).toBe(5);
    let sustained = 0;
    for (let t = T0 + 100; t <= T0 + 10_000; t += 100) sustained += state.admit(t) === 0 ? 1 : 0;
    expect(sustained).toBe(50);
    expect(admittedOf(burst(state, 10, T0 + 3_600_000))).toBe(5);
  });

  it('refills fractionally: 3 per second is one token every 333.3 ms', () => {
    const state = createLimitState('token-bucket', 3, SECOND);
    burst(state, 3, T0);
    expect(state.admit(T0)).toBeCloseTo(1000 / 3, 2);
    expect(state.admit(T0 + 334)).toBe(0);
  });
});

/** A small deterministic PRNG (mulberry32), so a failing sequence can be replayed. */
function seeded(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Bursts, short gaps and long pauses, at sub-millisecond resolution like the server's clock. */
const requestTimes = (random: () => number, n: number, windowMs: number): number[] => {
  const times: number[] = [];
  let t = T0 + random() * windowMs;
  for (let i = 0; i < n; i++) {
    const pick = random();
    if (pick < 0.4) t += 0;
    else if (pick < 0.9) t += Math.round(random() * (windowMs / 5) * 1000) / 1000;
    else t += Math.round(random() * windowMs * 2 * 1000) / 1000;
    times.push(t);
  }
  return times;
};

const replay = (kind: LimiterKind, count: number, ms: number, times: readonly number[]) => {
  const state = createLimitState(kind, count, ms);
  for (const t of times) state.admit(t);
  return state;
};

describe.each(LIMITER_KINDS)('%s: waits are exact and Retry-After honest', (kind) => {
  it.each([
    [3, SECOND],
    [5, MINUTE],
    [1, MINUTE],
  ])('over random request times, %i per %i ms', (count, ms) => {
    const random = seeded(count * 1000 + ms + kind.length);
    for (let run = 0; run < 10; run++) {
      const times = requestTimes(random, 120, ms);
      const state = createLimitState(kind, count, ms);
      for (const [i, t] of times.entries()) {
        const wait = state.admit(t);
        if (wait === 0) continue;
        expect(wait).toBeGreaterThan(0);
        expect(wait).toBeLessThanOrEqual(ms);
        const seconds = Number(retryAfter(wait, t, 60_000));
        expect(seconds).toBeGreaterThanOrEqual(1);
        expect(seconds).toBeLessThanOrEqual(Math.ceil(ms / SECOND));
        // The same history, then nothing until the wait (or Retry-After) is over: admitted then, and not before.
        const before = times.slice(0, i + 1);
        expect(replay(kind, count, ms, before).admit(t + wait)).toBe(0);
        expect(replay(kind, count, ms, before).admit(t + seconds * SECOND)).toBe(0);
        if (wait > 1) expect(replay(kind, count, ms, before).admit(t + wait - 1)).toBeGreaterThan(0);
      }
    }
  });

  it('never limits an unlimited count (the no-limit-schedule fault)', () => {
    expect(admittedOf(burst(createLimitState(kind, Number.POSITIVE_INFINITY, SECOND), 1000, T0))).toBe(1000);
  });
});

describe.each(LIMITER_KINDS)('limit-racy-counter over %s: counted 2 ms after its check', (kind) => {
  it('over-admits only the requests checked within the lag of the limit, and refuses once they are counted', () => {
    const state = racyCounter(createLimitState(kind, 3, MINUTE), 2);
    // Three admits counted by the fourth's check: faithful.
    expect([0, 10, 20].map((t) => state.admit(T0 + t))).toEqual([0, 0, 0]);
    expect(state.admit(T0 + 30)).toBeGreaterThan(0);
    // A window later (every kind has room for three again): three at once, and two more within the lag of the last.
    const later = T0 + 2 * MINUTE;
    expect(admittedOf([0, 0, 0, 1, 1.5].map((t) => state.admit(later + t)))).toBe(5);
    expect(state.admit(later + 3.5)).toBeGreaterThan(0);
    expect(state.left?.(later + 4).remaining).toBe(0);
  });
});
