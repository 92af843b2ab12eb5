import { describe, expect, it } from 'vitest';
import { timelineSvg } from '../../src/report/html-timeline.ts';
import { limitTimeline, MAX_DRAWN } from '../../src/runner/limit-timeline.ts';
import {
  admittedAfterRefusal,
  type Observation,
  refusedBelowLimit,
  relativeTo,
} from '../../src/runner/probe/limit-bounds.ts';

const ORIGIN = 1_000_000;
const at = (sent: number, status: number, label = `#${sent}`): Observation => ({
  sent: ORIGIN + sent,
  answered: ORIGIN + sent + 3,
  status,
  ours: true,
  label,
});
const LIMIT = { count: 5, windowMs: 1000 };

describe('times relative to the probe', () => {
  it('reads a time before the first request as -680 ms, never +-680 ms', () => {
    const time = relativeTo(ORIGIN);
    expect(time(ORIGIN - 680)).toBe('-680 ms');
    expect(time(ORIGIN + 6045.4)).toBe('+6045 ms');
    expect(time(ORIGIN - 0.2)).toBe('+0 ms');
  });
});

describe('limitTimeline', () => {
  it('keeps the requests around the stretch a refusal-below-limit proof counted, and marks its 429', () => {
    // Long before the window: outside the picture. Then 3 admitted and a 429: below the limit of 5.
    const log = [at(-5000, 200), at(0, 200), at(10, 200), at(20, 200), at(30, 429, 'spend 4')];
    // Judged among one burst's view of the log, as LIMIT-ADMITS does: the same requests as other objects.
    const proof = refusedBelowLimit(
      log,
      LIMIT,
      log.map((o) => ({ ...o })),
    )!;
    expect(proof.explain(relativeTo(ORIGIN))).toContain('answered after -970 ms');
    const timeline = limitTimeline(log, LIMIT, ORIGIN, proof);
    expect(timeline).toMatchObject({ claim: 'under', counted: 3, bound: 5, from: -970, until: 33 });
    expect(timeline.requests.map((r) => r.sent)).toEqual([0, 10, 20, 30]);
    expect(timeline.requests.map((r) => r.counted)).toEqual([true, true, true, false]);
    expect(timeline.requests.filter((r) => r.refusal)).toEqual([
      { sent: 30, answered: 33, status: 429, counted: false, refusal: true },
    ]);
  });

  it('counts the admitted requests an over-limit proof found after a refusal', () => {
    // The limit's worth admitted before the 429, which a faithful limiter can then have made.
    const full = Array.from({ length: 5 }, (_, i) => at(-50 + i, 200));
    const log = [...full, at(0, 429), ...Array.from({ length: 7 }, (_, i) => at(100 + i, 200))];
    const proof = admittedAfterRefusal(log, LIMIT)!;
    const timeline = limitTimeline(log, LIMIT, ORIGIN, proof);
    expect(timeline).toMatchObject({ claim: 'over', counted: 7, bound: proof.bound });
    expect(timeline.requests.filter((r) => r.counted)).toHaveLength(7);
    expect(timeline.requests.find((r) => r.refusal)).toMatchObject({ status: 429, sent: 0, counted: false });
  });
});

describe('a stretch of more requests than a picture draws', () => {
  it('keeps an even sample of MAX_DRAWN, the refusal among them, and says how many there were', () => {
    const limit = { count: 3000, windowMs: 1000 };
    const log: Observation[] = Array.from({ length: 5000 }, (_, i) => ({
      sent: i * 0.1,
      answered: i * 0.1 + 5,
      status: i === 100 ? 429 : 200,
      ours: true,
      label: `r${i}`,
    }));
    const proof = refusedBelowLimit(log, limit, log)!;
    const timeline = limitTimeline(log, limit, 0, proof);
    expect(timeline.shownOf).toBeGreaterThan(MAX_DRAWN);
    expect(timeline.requests.length).toBeLessThanOrEqual(MAX_DRAWN + 1);
    expect(timeline.requests.length).toBeGreaterThan(MAX_DRAWN * 0.9);
    expect(timeline.requests.filter((r) => r.refusal)).toHaveLength(1);
    expect(timelineSvg(timeline).text).toContain(`of ${timeline.shownOf})`);
  });
});
