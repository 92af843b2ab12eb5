// The terminal outputs of conformance and load with a target's worst text in them: a Retry-After of C1 controls
// (undici passes U+0080-U+009F; xterm.js reads U+009B as CSI), OSC 52, a bidi override. What reaches the terminal
// holds no control but harness's own colours, and the summary line stays on the screen, visible.
import { describe, expect, it, vi } from 'vitest';
import { say, tty } from '../../src/printable.ts';
import { gradePainter } from '../../src/terminal/colour.ts';
import { liveProgress } from '../../src/terminal/live-progress.ts';
import { loadTerminal } from '../../src/terminal/load-progress.ts';
import { lineProgress } from '../../src/terminal/progress.ts';
import { printSummary } from '../../src/terminal/summary.ts';
import { FIXTURE, FIXTURE_CHECKS, reportOf } from '../report/fixture.ts';
import { seenOnTerminal } from '../support/xterm.ts';

/** What the target sent in every 429: erase screen and scrollback, home, and hide everything after. */
const C1_RETRY_AFTER = '\x9b3J\x9b2J\x9bH\x9b8m 1';
const HOSTILE = `Retry-After '${C1_RETRY_AFTER}' \x1b]52;c;aGVsbG8=\x07 \u202etxt.exe`;

// biome-ignore lint/suspicious/noControlCharactersInRegex: harness's own escape codes are what this removes.
const HARNESS_OWN = /\x1b\[[\d;]*m|\r\x1b\[2K/g;

/** Controls other than harness's own colours (ESC [ n m), line feeds, and its erase-line (CR ESC [ 2 K). */
const foreignControls = (output: string): string[] =>
  [...output.replace(HARNESS_OWN, '').matchAll(/[^\P{Cc}\n]/gu)].map((m) => m[0]);

const printed = (print: () => void): string => {
  const lines: string[] = [];
  const log = vi.spyOn(console, 'log').mockImplementation((line: string) => void lines.push(line));
  try {
    print();
  } finally {
    log.mockRestore();
  }
  return `${lines.join('\n')}\n`;
};

const hostileReport = () => {
  const [failing] = FIXTURE_CHECKS.filter((c) => c.grade === 'FAIL');
  return reportOf(
    Array.from({ length: 18 }, (_, i) => ({ ...failing!, id: `LIMIT-RETRY-AFTER-${i}`, message: HOSTILE })),
  );
};

describe('the terminal outputs', () => {
  it('print a target’s controls as \\u escapes, keep harness’s colours, and leave the summary visible', async () => {
    const output = printed(() =>
      printSummary(hostileReport(), ['reports/\x9b2J.json'], [], {
        paint: gradePainter({ isTTY: true }, {}),
      }),
    );
    expect(foreignControls(output)).toEqual([]);
    expect(output).toContain('\\u009b3J\\u009b2J\\u009bH\\u009b8m 1');
    expect(output).toContain('\\u001b]52;c;aGVsbG8=\\u0007 \\u202etxt.exe');
    expect(output).toContain('\x1b[31mFAIL');
    // The same lines unescaped, as before printable.ts: the scrollback erased, the summary drawn invisibly.
    const raw = await seenOnTerminal(output.replaceAll('\\u009b', '\x9b'));
    expect(raw.find((line) => line.text.startsWith('summary:'))?.hidden).toBe(true);
    const written = output.split('\n').filter((line) => line !== '').length;
    const kept = (screen: readonly { text: string }[]) => screen.filter((line) => line.text !== '').length;
    expect(kept(raw)).toBeLessThan(written);
    const screen = await seenOnTerminal(output);
    // Nothing erased: every line written is still there, scrollback included.
    expect(kept(screen)).toBe(written);
    const summary = screen.find((line) => line.text.startsWith('summary:'));
    expect(summary?.text).toMatch(/^summary: 18 checks in 111\.5 s: 18 FAIL,/);
    expect(summary?.hidden).toBe(false);
  });

  it('escape the check messages, waits and notes of the progress lines, on a terminal and in a log', async () => {
    const events = [
      { type: 'run-started', checks: 2, expectedMs: 10_000 },
      { type: 'wait-started', id: 'LIMIT-X', ms: 2000, why: `for ${C1_RETRY_AFTER}` },
      { type: 'check-finished', id: 'LIMIT-X', grade: 'FAIL', message: HOSTILE, durationMs: 3 },
      { type: 'note', text: `harness: conformance: http://127.0.0.1/\x9b2J\nsecond line` },
      { type: 'checks-ended' },
    ] as const;
    const logged: string[] = [];
    const inLog = lineProgress((line) => logged.push(line), gradePainter({ isTTY: true }, {}));
    const writes: string[] = [];
    const onTerminal = liveProgress(
      { write: (text) => void writes.push(text), columns: 120 },
      gradePainter({}),
    );
    for (const event of events) {
      inLog(event);
      onTerminal(event);
    }
    const live = writes.join('');
    for (const output of [logged.join('\n'), live]) {
      expect(foreignControls(output)).toEqual([]);
      expect(output).toContain('\\u009b3J');
      // A note's own lines stay lines.
      expect(output).toContain('\\u009b2J\nsecond line');
    }
    expect((await seenOnTerminal(live)).some((line) => line.text.includes('FAIL         LIMIT-X'))).toBe(
      true,
    );
  });

  it('escape the phase names and k6 lines of a load run', () => {
    const writes: string[] = [];
    const show = loadTerminal({ isTTY: false, write: (text: string) => void writes.push(text) });
    show({
      type: 'phase-started',
      name: 'burst\x9b2J',
      index: 1,
      phases: 1,
      startMs: 0,
      durationMs: 1000,
      totalMs: 1000,
    });
    show({ type: 'note', text: 'k6: \x1b]8;;http://x.example.test\x07link\x1b]8;;\x07' });
    const written = writes.join('');
    expect(foreignControls(written)).toEqual([]);
    expect(written).toContain('phase burst\\u009b2J started');
    expect(written).toContain('k6: \\u001b]8;;http://x.example.test\\u0007link');
  });

  it('say beside the verdict how much of SPEC.md the run verified, so a run with SKIPs never reads as a full one', () => {
    const lines = printed(() => printSummary(FIXTURE, [], [], { paint: gradePainter({}) }))
      .trim()
      .split('\n');
    expect(lines.at(-1)).toMatch(/^summary: 10 checks in /);
    expect(lines.at(-3)).toBe(
      'coverage: 9 of 10 checks ran; 1 skipped: 1 because the profile has no clients.restricted',
    );
    const allRan = reportOf(FIXTURE_CHECKS.filter((c) => c.grade !== 'SKIP'));
    expect(printed(() => printSummary(allRan, [], []))).toContain('\ncoverage: all 9 checks ran\n');
  });

  it('start with the first check, not a blank line, and name the reports by their folder and the page to open', () => {
    const files = ['conformance.json', 'conformance.html', 'index.html'].map(
      (name) => `/abs/reports/run/${name}`,
    );
    const output = printed(() => printSummary(FIXTURE, files, [], { paint: gradePainter({}) }));
    expect(output.split('\n')[0]).toMatch(/^FAIL +[A-Z]/);
    expect(output).toContain('\nreports: /abs/reports/run/ (open index.html)\n');
  });

  it('take only terminal text: the compiler refuses a raw string', () => {
    const lines = printed(() => {
      // @ts-expect-error a string, however it was built, is not TerminalText: it must go through tty or printable.
      say(`raw ${HOSTILE}`);
      say(tty`escaped ${HOSTILE}`);
    });
    expect(lines).toContain('escaped Retry-After');
  });
});
