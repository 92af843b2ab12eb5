// How far apart runners on several machines may have started: their own clocks' start offsets, plus what the
// target's Date headers leave open between the clocks. A proven FAIL needs slots that line up in the target's time.
import { describe, expect, it } from 'vitest';
import { answerBounds, type RunnerClock, startSpread } from '../../core/clocks.ts';
import type { LoadSummary } from '../../core/evidence.ts';
import { judgeAll } from '../../core/verdict.ts';
import { NETWORKS, simulate } from '../load/simulate.ts';

const on = (source: string, host: string, lo?: number, hi?: number) => ({
  source,
  clock: { host, ...(lo === undefined ? {} : { offsetMs: { lo, hi: hi! } }) } satisfies RunnerClock,
});

describe('answerBounds', () => {
  it('puts the offset between the Date second stamped and the send and answer times', () => {
    // Sent at 10.900 s, answered at 11.100 s by the runner's clock (k6 reads whole ms), stamped 11 s: the stamp
    // was at 11.000 to 11.999 s of the target's clock (up to 25 ms later, if the Date was stale), somewhere in
    // 10.900 to 11.101 s of the runner's.
    expect(answerBounds(11_000, 10_900, 11_100)).toEqual({ lo: -101, hi: 1125 });
  });
});

describe('startSpread', () => {
  it('leaves runners of one host to their start offsets, whatever their Date bounds', () => {
    expect(startSpread([on('a', 'boot-1', -5, 5), on('b', 'boot-1')], [0, 40])).toBeUndefined();
  });

  it('adds the most two clocks may differ by, over every ordered pair, and shows the sum', () => {
    const spread = startSpread([on('a', '', -2, 3), on('b', '', 40, 47)], [10, 0]);
    // b after a: 0 - 10 + (47 - (-2)) = 39; a after b: 10 - 0 + (3 - 40) = -27.
    expect(spread).toEqual({
      ms: 39,
      why: "by the target's Date headers, the target's clock is +40 to +47 ms from b's and -2 to +3 ms from a's, so b may have started 39 ms after a: -10 ms later by their own clocks, plus up to 47 - (-2) ms between the clocks",
    });
  });

  it("intersects the bounds of runners sharing a host, which saw one offset, and uses one host's clock exactly", () => {
    // Host h: [-10, 30] and [0, 50] give [0, 30]; against c at [0, 2] the worst is h after c: 30 - 0.
    const spread = startSpread([on('a', 'h', -10, 30), on('b', 'h', 0, 50), on('c', '', 0, 2)], [0, 0, 0]);
    expect(spread?.ms).toBe(30);
    // Two runners on one host started 400 ms apart: no clock between hosts is counted between them.
    const shared = startSpread([on('a', 'h', 0, 1), on('b', 'h', 0, 1), on('c', '', 0, 1)], [400, 0, 350]);
    expect(shared).toEqual({
      ms: 400,
      why: "a may have started 400 ms after b: on one host's clock, 400 ms later",
    });
    expect(startSpread([on('a', 'h', 0, 1), on('b', 'h', 0, 1)], [400, 0])).toBeUndefined();
  });

  it('bounds nothing where a machine saw no Date header, or Date headers that contradict each other', () => {
    expect(startSpread([on('a', '', 0, 5), on('pod-2', '')], [0, 0])).toEqual({
      why: "pod-2 shares no host's clock with the others and recorded no Date header of the target's, so nothing compares its clock with theirs",
    });
    expect(startSpread([on('a', '', 0, 5), on('b', '', 300, 20)], [0, 0])?.ms).toBeUndefined();
  });
});

describe('the verdicts of runners on several machines', () => {
  // Transactions: a 1 s window, so a tenth of it is 100 ms.
  const faithful = simulate({ kind: 'aligned', network: NETWORKS.lan }, { scenarios: ['transactions'] });
  const runnersAt = (spread: LoadSummary['startSpread']): LoadSummary => ({
    ...faithful,
    instances: 2,
    lateMs: [0, 0],
    ...(spread ? { startSpread: spread } : {}),
  });

  it('grade as one clock where the clocks may differ by at most a tenth of a window', () => {
    expect(judgeAll(runnersAt({ ms: 40, why: 'close' })).map((v) => v.grade)).toEqual(
      judgeAll(runnersAt(undefined)).map((v) => v.grade),
    );
  });

  it('are INCONCLUSIVE, with the arithmetic, where they may differ by more, or cannot be compared', () => {
    for (const verdict of judgeAll(runnersAt({ ms: 250, why: 'b may have started 250 ms after a: ...' }))) {
      expect(verdict.grade).toBe('INCONCLUSIVE');
      expect(verdict.message).toMatch(/over a tenth of a window apart: b may have started 250 ms after a/);
    }
    for (const verdict of judgeAll(runnersAt({ why: "pod-2 shares no host's clock" })))
      expect(verdict.message).toMatch(/the runners' starts cannot be compared: pod-2 shares no host's clock/);
  });
});
