// Progress off a terminal (a CI log, a pipe): a line per finished check on stderr, so stdout stays for the summary and
// the log keeps every line, and a countdown for each long wait, so a quiet log still shows the run alive. On a
// terminal, liveProgress (live-progress.ts) rewrites one line instead.
import type { Listener } from '../events/stream.ts';
import { type TerminalText, terminalLines, terminalSink, tty } from '../printable.ts';
import type { Grade } from '../runner/grades.ts';
import type { ConformanceEvent } from '../runner/types.ts';
import { type GradePainter, gradePainter } from './colour.ts';

const COUNTDOWN_STEP_MS = 10_000;

/** `  FAIL         AUTH-TOKEN-TYPE (12 ms): why`: a finished check as both progress listeners print it. */
export const checkLine = (
  paint: GradePainter,
  id: string,
  grade: Grade,
  message: string,
  durationMs: number,
): TerminalText =>
  tty`  ${paint(grade, tty`${grade.padEnd(12)}`)} ${id} (${Math.round(durationMs)} ms)${grade === 'PASS' ? '' : tty`: ${message}`}`;

/**
 * `write` gets each line, its target's text escaped (printable.ts); `paint` colours the grade, and the default
 * decides by stderr, where the CLI writes progress.
 */
export const lineProgress = (
  write: (line: string) => void,
  paint: GradePainter = gradePainter(process.stderr),
): Listener<ConformanceEvent> => {
  const line = terminalSink(write);
  // A long wait counts down every 10 s, so a quiet log still shows the run alive.
  const countdowns = new Map<string, NodeJS.Timeout>();
  const stopCountdown = (id: string) => {
    clearInterval(countdowns.get(id));
    countdowns.delete(id);
  };
  return (event) => {
    switch (event.type) {
      case 'check-finished':
        return line(checkLine(paint, event.id, event.grade, event.message, event.durationMs));
      case 'wait-started': {
        if (event.ms < 1000) return;
        line(tty`  ⏳ ${event.id}: waiting ${(event.ms / 1000).toFixed(1)} s ${event.why}`);
        let left = event.ms;
        const timer = setInterval(() => {
          left -= COUNTDOWN_STEP_MS;
          if (left > 0) line(tty`  ⏳ ${event.id}: ${Math.ceil(left / 1000)} s left`);
        }, COUNTDOWN_STEP_MS);
        timer.unref();
        stopCountdown(event.id);
        countdowns.set(event.id, timer);
        return;
      }
      case 'wait-ended':
        return stopCountdown(event.id);
      case 'note':
        return line(terminalLines(event.text));
      case 'checks-ended':
        for (const id of [...countdowns.keys()]) stopCountdown(id);
        return;
    }
  };
};
