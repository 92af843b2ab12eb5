// Load progress as two halves of the run's event stream: the schedule (and k6's counts) become events, and the
// terminal's listener shows them, in a CI log as a line per phase, on a TTY as one line rewritten in place.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EventStream } from '../../src/events/stream.ts';
import { type LoadEvent, scheduleEvents } from '../../src/k6-driver/load-events.ts';
import { loadTerminal } from '../../src/terminal/load-progress.ts';

const PHASES = [
  { name: 'within_a', startMs: 0, durationMs: 3000 },
  { name: 'over_a', startMs: 3000, durationMs: 100 },
  { name: 'knee_a', startMs: 3100, durationMs: 3000 },
];

const capture = (isTTY: boolean) => {
  const written: string[] = [];
  const events = new EventStream<LoadEvent>([loadTerminal({ isTTY, write: (text) => written.push(text) })]);
  return { events, written };
};

describe('load progress', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('in a log: one plain line per phase as it starts, a short phase between ticks included, in order', () => {
    const { events, written } = capture(false);
    const schedule = scheduleEvents(PHASES, Date.now() + 1000, events, { tickMs: 500 });
    vi.advanceTimersByTime(900);
    expect(written).toEqual([]);
    vi.advanceTimersByTime(3700);
    expect(written).toEqual([
      'load: phase within_a started (1 of 3, 3 s, at 0 s of 6 s)\n',
      'load: phase over_a started (2 of 3, 0 s, at 3 s of 6 s)\n',
      'load: phase knee_a started (3 of 3, 3 s, at 3 s of 6 s)\n',
    ]);
    vi.advanceTimersByTime(5000);
    schedule.stop();
    expect(written).toHaveLength(3);
  });

  it('on a terminal: one line rewritten in place with the time and the phase running, erased on stop', () => {
    const { events, written } = capture(true);
    const schedule = scheduleEvents(PHASES, Date.now(), events, { tickMs: 250 });
    vi.advanceTimersByTime(4000);
    expect(written.at(-1)).toBe('\r\x1b[2Kload: 4 s of 6 s: knee_a');
    expect(written.join('')).not.toContain('\n');
    expect(new Set(written).size, 'the same line is not written again').toBe(written.length);
    schedule.stop();
    expect(written.at(-1)).toBe('\r\x1b[2K');
    vi.advanceTimersByTime(5000);
    expect(written.at(-1)).toBe('\r\x1b[2K');
  });

  it('on a terminal: a note (a line k6 printed) erases the live line first, and the next tick draws it again', () => {
    const { events, written } = capture(true);
    const schedule = scheduleEvents(PHASES, Date.now(), events, { tickMs: 250 });
    vi.advanceTimersByTime(500);
    events.emit({ type: 'note', text: '[k6] a warning' });
    expect(written.slice(-2)).toEqual(['\r\x1b[2K', '[k6] a warning\n']);
    vi.advanceTimersByTime(250);
    expect(written.at(-1)).toBe('\r\x1b[2Kload: 1 s of 6 s: within_a');
    schedule.stop();
  });

  it("on a terminal: the running phase's admitted and 429 rates, from what k6 has counted so far", () => {
    const { events, written } = capture(true);
    const start = Date.now();
    // 400 admitted and 100 refused a second, as k6's checkpoints count them.
    const counts = () => {
      const seconds = (Date.now() - start) / 1000;
      return new Map([
        ['within_a', { admitted: Math.round(400 * seconds), limited: Math.round(100 * seconds) }],
      ]);
    };
    const schedule = scheduleEvents(PHASES, start, events, { tickMs: 250, counts });
    vi.advanceTimersByTime(2500);
    expect(written.at(-1)).toBe('\r\x1b[2Kload: 3 s of 6 s: within_a 400 admitted/s, 100 429/s');
    schedule.stop();
  });
});
