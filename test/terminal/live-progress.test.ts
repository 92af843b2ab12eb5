// The live progress line on a terminal: one line rewritten in place with checks done, FAILs so far and time left,
// each check that did not pass printed above it, and the line gone before the summary goes to stdout.
import { stripVTControlCharacters } from 'node:util';
import { describe, expect, it } from 'vitest';
import { gradePainter } from '../../src/terminal/colour.ts';
import { liveProgress } from '../../src/terminal/live-progress.ts';

const terminal = (columns = 200) => {
  const writes: string[] = [];
  return { writes, term: { write: (text: string) => void writes.push(text), columns } };
};
const plain = gradePainter({});

describe('liveProgress', () => {
  it('rewrites one status line, prints what did not pass above it, and clears it at the end', () => {
    let clock = 1_000_000;
    const { writes, term } = terminal();
    const progress = liveProgress(term, plain, () => clock);
    progress({ type: 'run-started', checks: 3, expectedMs: 60_000 });
    expect(writes.at(-1)).toBe('conformance: 0 of 3 checks, 0 FAIL, about 60 s left');
    clock += 5_000;
    progress({ type: 'check-finished', id: 'AUTH-TOKEN-TYPE', grade: 'PASS', message: 'ok', durationMs: 12 });
    expect(writes.slice(-2)).toEqual(['\r\x1b[2K', 'conformance: 1 of 3 checks, 0 FAIL, about 55 s left']);
    const id = 'LIMIT-ENFORCED-RULES-SCHEDULE';
    progress({ type: 'wait-started', id, ms: 20, why: 'for the window to end' });
    expect(writes.at(-1)).toMatch(/; LIMIT-ENFORCED-RULES-SCHEDULE waiting 1 s for the window to end$/);
    progress({ type: 'wait-ended', id });
    progress({
      type: 'check-finished',
      id,
      grade: 'FAIL',
      message: 'more admitted than SPEC.md allows',
      durationMs: 3000,
    });
    expect(writes.slice(-3)).toEqual([
      '\r\x1b[2K',
      '  FAIL         LIMIT-ENFORCED-RULES-SCHEDULE (3000 ms): more admitted than SPEC.md allows\n',
      'conformance: 2 of 3 checks, 1 FAIL, about 55 s left',
    ]);
    progress({ type: 'checks-ended' });
    expect(writes.at(-1)).toBe('\r\x1b[2K');
  });

  it('cuts the status line to the terminal, so that it never wraps onto a second line', () => {
    const { writes, term } = terminal(30);
    liveProgress(term, plain, () => 0)({ type: 'run-started', checks: 70, expectedMs: 120_000 });
    expect(writes.at(-1)).toBe('conformance: 0 of 70 checks, …');
    expect(writes.at(-1)!.length).toBe(30);
  });

  it('counts colour codes as no width when it cuts, and keeps them all', () => {
    const { writes, term } = terminal(30);
    const red = gradePainter({ isTTY: true }, {});
    const progress = liveProgress(term, red, () => 0);
    progress({ type: 'run-started', checks: 70, expectedMs: 120_000 });
    progress({ type: 'check-finished', id: 'A', grade: 'FAIL', message: 'no', durationMs: 1 });
    const line = writes.at(-1)!;
    expect(line).toBe('conformance: 1 of 70 checks, \x1b[31m\x1b[39m…');
    expect(stripVTControlCharacters(line)).toHaveLength(30);
  });
});
