// Progress in a CI log: one line per check as it finishes (the grade, the ID, how long, and why when it did not pass),
// and a countdown for a long wait, which stops when the wait ends.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { gradePainter } from '../../src/terminal/colour.ts';
import { lineProgress } from '../../src/terminal/progress.ts';

const plain = gradePainter({});

describe('lineProgress', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('writes one line per finished check, none when it starts', () => {
    const lines: string[] = [];
    const progress = lineProgress((line) => lines.push(line), plain);
    progress({ type: 'run-started', checks: 2, expectedMs: 1000 });
    progress({ type: 'check-started', id: 'AUTH-TOKEN-TYPE' });
    progress({
      type: 'check-finished',
      id: 'AUTH-TOKEN-TYPE',
      grade: 'PASS',
      message: 'ok',
      durationMs: 12.4,
    });
    progress({ type: 'check-started', id: 'AUTH-TOKEN-SCHEMA' });
    progress({
      type: 'check-finished',
      id: 'AUTH-TOKEN-SCHEMA',
      grade: 'FAIL',
      message: 'no',
      durationMs: 3,
    });
    expect(lines).toEqual([
      '  PASS         AUTH-TOKEN-TYPE (12 ms)',
      '  FAIL         AUTH-TOKEN-SCHEMA (3 ms): no',
    ]);
  });

  it('counts a long wait down every 10 s until it ends', () => {
    const lines: string[] = [];
    const progress = lineProgress((line) => lines.push(line), plain);
    progress({ type: 'wait-started', id: 'AUTH-TOKEN-EXPIRY', ms: 25_000, why: 'for the token to expire' });
    vi.advanceTimersByTime(20_000);
    progress({ type: 'wait-ended', id: 'AUTH-TOKEN-EXPIRY' });
    vi.advanceTimersByTime(30_000);
    expect(lines).toEqual([
      '  ⏳ AUTH-TOKEN-EXPIRY: waiting 25.0 s for the token to expire',
      '  ⏳ AUTH-TOKEN-EXPIRY: 15 s left',
      '  ⏳ AUTH-TOKEN-EXPIRY: 5 s left',
    ]);
  });
});
