// Progress for a person watching a run: one line per event on stderr, so stdout stays for the summary.
import { setTimeout as delay } from 'node:timers/promises';
import { type GradePainter, gradePainter } from './colour.ts';
import type { Grade } from './grades.ts';

export interface Progress {
  /** The run begins: how many checks will run, and about how long it should take. */
  begin?(checks: number, expectedMs: number): void;
  started(id: string): void;
  finished(id: string, grade: Grade, message: string, durationMs: number): void;
  /** A deliberate wait (a window to reset, a token to expire), counted down; `signal` ends it early (rejecting). */
  waiting(id: string, ms: number, why: string, signal?: AbortSignal): Promise<void>;
  line(text: string): void;
  /** The run is over: a live line must be gone before the summary goes to stdout. */
  end?(): void;
}

const COUNTDOWN_STEP_MS = 10_000;

/** `paint` colours the grade; the default decides by stderr, where the CLI writes progress. */
export const streamProgress = (
  write: (line: string) => void,
  paint: GradePainter = gradePainter(process.stderr),
): Progress => ({
  started: (id) => write(`  … ${id}`),
  finished: (id, grade, message, durationMs) =>
    write(
      `  ${paint(grade, grade.padEnd(12))} ${id} (${Math.round(durationMs)} ms)${grade === 'PASS' ? '' : `: ${message}`}`,
    ),
  waiting: async (id, ms, why, signal) => {
    if (ms >= 1000) write(`  ⏳ ${id}: waiting ${(ms / 1000).toFixed(1)} s ${why}`);
    let left = ms;
    while (left > COUNTDOWN_STEP_MS) {
      await sleep(COUNTDOWN_STEP_MS, signal);
      left -= COUNTDOWN_STEP_MS;
      write(`  ⏳ ${id}: ${Math.ceil(left / 1000)} s left`);
    }
    await sleep(left, signal);
  },
  line: write,
});

/** The same progress with `hide` applied to every message, wait reason and line. */
export const redactedProgress = (progress: Progress, hide: (text: string) => string): Progress => ({
  begin: (checks, expectedMs) => progress.begin?.(checks, expectedMs),
  end: () => progress.end?.(),
  started: (id) => progress.started(id),
  finished: (id, grade, message, durationMs) => progress.finished(id, grade, hide(message), durationMs),
  waiting: (id, ms, why, signal) => progress.waiting(id, ms, hide(why), signal),
  line: (text) => progress.line(hide(text)),
});

export const silentProgress: Progress = {
  started: () => {},
  finished: () => {},
  waiting: (_id, ms, _why, signal) => sleep(ms, signal),
  line: () => {},
};

/** Resolves after `ms`; rejects as soon as `signal` aborts, so a run that ended leaves no timer holding the process. */
export const sleep = (ms: number, signal?: AbortSignal): Promise<void> =>
  delay(Math.max(0, ms), undefined, signal === undefined ? {} : { signal });
