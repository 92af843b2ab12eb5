// The checks a set of runner summaries passes before it is merged, and the summaries' way back through pod logs.
import { describe, expect, it } from 'vitest';
import { checkRunners, type RunnerIdentity, startOffsetsMs } from '../../core/runners.ts';
import { markedSummary, summariesInLogs } from '../../core/summary-markers.ts';

const runner = (segment: string, changes: Partial<RunnerIdentity> = {}): RunnerIdentity => ({
  runId: 'run-a',
  planDigest: 'd'.repeat(64),
  segment,
  sequence: '0,1/3,2/3,1',
  startAt: 1_000_000,
  setupCompleted: true,
  harnessVersion: '0.1.0',
  k6Version: 'v2.2.0',
  ...changes,
});

const check = (...runners: RunnerIdentity[]) =>
  checkRunners(runners.map((r, i) => ({ source: `r${i + 1}`, runner: r })));

describe('checkRunners', () => {
  it('accepts segments that tile 0..1 exactly once, in any order, and a single whole-schedule runner', () => {
    expect(check(runner('2/3:1'), runner('0:1/3'), runner('1/3:2/3'))).toEqual({
      kept: [0, 1, 2],
      problems: [],
    });
    expect(check(runner('0:1', { sequence: '' }))).toEqual({ kept: [0], problems: [] });
  });

  it('names a gap at the start, the middle and the end, and an overlap that is no duplicate', () => {
    expect(check(runner('1/3:2/3')).problems).toEqual([
      'no runner covers segment 0:1/3 (missing)',
      'no runner covers segment 2/3:1 (missing)',
    ]);
    expect(check(runner('0:1/2', { sequence: '' }), runner('1/3:1', { sequence: '' })).problems).toEqual([
      'segments 0:1/2 (r1) and 1/3:1 (r2) overlap',
    ]);
  });

  it('leaves out a foreign runner, a runner without identity, and says what is wrong with the rest', () => {
    const result = checkRunners([
      { source: 'a', runner: runner('0:1/3') },
      { source: 'b', runner: runner('1/3:2/3', { planDigest: 'e'.repeat(64) }) },
      { source: 'c', runner: runner('2/3:1', { setupCompleted: false }) },
      { source: 'd', runner: undefined },
    ]);
    expect(result.kept).toEqual([0, 2]);
    expect(result.problems).toEqual([
      "b is foreign: run id run-a and plan sha256 eeeeeeeeeeee… are not the run's",
      'd does not say which runner it is (no runner identity)',
      'c (segment 2/3:1): setup() did not complete',
      'no runner covers segment 1/3:2/3 (missing)',
    ]);
  });

  it('refuses runners without a run id, or splitting by different sequences', () => {
    const anonymous = check(runner('0:1/2', { runId: '', sequence: 'x' }), runner('1/2:1', { runId: '' }));
    expect(anonymous.problems).toEqual([
      'the runners have no run id (HARNESS_RUN_ID unset): nothing shows they are one run',
      'the runners split the schedule by different sequences: x | 0,1/3,2/3,1',
    ]);
  });

  it('counts a later common start as lateness, so runners started apart are graded as out of step', () => {
    expect(startOffsetsMs([runner('0:1/2'), runner('1/2:1', { startAt: 1_000_200 })], [5, 0])).toEqual([
      5, 200,
    ]);
  });
});

describe('summariesInLogs', () => {
  const block = (n: number) => markedSummary({ n }).trimEnd().split('\n');

  it("finds each pod's block in interleaved kubectl logs --prefix output, past k6's own log lines", () => {
    const [b1, j1, e1] = block(1).map((l) => `[pod/run-1/k6] ${l}`);
    const [b2, j2, e2] = block(2).map((l) => `[pod/run-2/k6] ${l}`);
    const log = [
      '[pod/run-1/k6] share  over_transactions  admitted 3',
      b1,
      b2,
      '[pod/run-1/k6] time="2026-11-24T18:00:00Z" level=warning msg="Request Failed"',
      j2,
      j1,
      e1,
      e2,
    ].join('\n');
    expect(summariesInLogs(log, 'pods.log')).toEqual([
      { source: 'pods.log line 2 [pod/run-1/k6]', json: '{"n":1}' },
      { source: 'pods.log line 3 [pod/run-2/k6]', json: '{"n":2}' },
    ]);
  });

  it('names a block cut off by the end of the log or by another block, without prefixes too', () => {
    const [begin, json] = block(1);
    expect(summariesInLogs([begin, begin, json].join('\n'), 'one.log')).toEqual([
      { source: 'one.log line 1', json: undefined },
      { source: 'one.log line 2', json: undefined },
    ]);
  });
});
