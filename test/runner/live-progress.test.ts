// The live progress line on a terminal: one line rewritten in place with checks done, FAILs so far and time left,
// each check that did not pass printed above it, and the line gone before the summary goes to stdout.
import { describe, expect, it } from 'vitest';
import { liveProgress } from '../../src/runner/live-progress.ts';

const terminal = (columns = 200) => {
  const writes: string[] = [];
  return { writes, term: { write: (text: string) => void writes.push(text), columns } };
};
const plain = (grade: string, text?: string) => text ?? grade;

describe('liveProgress', () => {
  it('rewrites one status line, prints what did not pass above it, and clears it at the end', async () => {
    let clock = 1_000_000;
    const { writes, term } = terminal();
    const progress = liveProgress(term, plain, () => clock);
    progress.begin!(3, 60_000);
    expect(writes.at(-1)).toBe('conformance: 0 of 3 checks, 0 FAIL, about 60 s left');
    clock += 5_000;
    progress.finished('AUTH-TOKEN-TYPE', 'PASS', 'ok', 12);
    expect(writes.slice(-2)).toEqual(['\r\x1b[2K', 'conformance: 1 of 3 checks, 0 FAIL, about 55 s left']);
    const waited = progress.waiting('LIMIT-ENFORCED-RULES-SCHEDULE', 20, 'for the window to end');
    expect(writes.at(-1)).toMatch(/; LIMIT-ENFORCED-RULES-SCHEDULE waiting 1 s for the window to end$/);
    await waited;
    progress.finished('LIMIT-ENFORCED-RULES-SCHEDULE', 'FAIL', 'more admitted than SPEC.md allows', 3000);
    expect(writes.slice(-3)).toEqual([
      '\r\x1b[2K',
      '  FAIL         LIMIT-ENFORCED-RULES-SCHEDULE (3000 ms): more admitted than SPEC.md allows\n',
      'conformance: 2 of 3 checks, 1 FAIL, about 55 s left',
    ]);
    progress.end!();
    expect(writes.at(-1)).toBe('\r\x1b[2K');
  });

  it('cuts the status line to the terminal, so that it never wraps onto a second line', () => {
    const { writes, term } = terminal(30);
    liveProgress(term, plain, () => 0).begin!(70, 120_000);
    expect(writes.at(-1)).toBe('conformance: 0 of 70 checks, …');
    expect(writes.at(-1)!.length).toBe(30);
  });
});
