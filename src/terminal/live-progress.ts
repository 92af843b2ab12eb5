// Progress on a terminal, as k6 shows it: one line rewritten in place (checks done of all, FAILs so far, time
// left, and the longest wait under way), with each check that did not pass printed above it as it finishes.
// Off a terminal, lineProgress (progress.ts) writes a line per event instead, which a CI log keeps.

import type { Listener } from '../events/stream.ts';
import { plural } from '../plural.ts';
import { ERASE_LINE, fitted, type TerminalText, terminalLines, terminalSink, tty } from '../printable.ts';
import type { Grade } from '../runner/grades.ts';
import type { ConformanceEvent } from '../runner/types.ts';
import { type GradePainter, gradePainter } from './colour.ts';
import { checkLine } from './progress.ts';

const REDRAW_MS = 1000;
const seconds = (ms: number) => `${Math.max(0, Math.ceil(ms / 1000))} s`;

export interface Terminal {
  write(text: string): void;
  readonly columns?: number;
}

export const liveProgress = (
  terminal: Terminal,
  paint: GradePainter = gradePainter(process.stderr),
  now: () => number = Date.now,
): Listener<ConformanceEvent> => {
  let total = 0;
  let expectedMs = 0;
  let startedAt = now();
  let done = 0;
  const counts = new Map<Grade, number>();
  const waits = new Map<string, { until: number; why: string }>();
  let shown = false;
  const write = terminalSink((raw) => terminal.write(raw));
  let timer: NodeJS.Timeout | undefined;

  const status = (): TerminalText => {
    const failed = counts.get('FAIL') ?? 0;
    const undecided = counts.get('INCONCLUSIVE') ?? 0;
    const left = expectedMs - (now() - startedAt);
    const [id, wait] = [...waits.entries()].sort((a, b) => b[1].until - a[1].until)[0] ?? [];
    const line = tty`conformance: ${done} of ${plural(total, 'check')}, ${failed > 0 ? paint('FAIL', tty`${failed} FAIL`) : '0 FAIL'}${
      undecided > 0 ? `, ${undecided} INCONCLUSIVE` : ''
    }, about ${seconds(left)} left${wait ? tty`; ${id ?? ''} waiting ${seconds(wait.until - now())} ${wait.why}` : ''}`;
    return fitted(line, terminal.columns ?? 120);
  };
  const clear = () => {
    if (shown) write(ERASE_LINE);
    shown = false;
  };
  const draw = () => {
    clear();
    if (total === 0) return;
    write(status());
    shown = true;
  };
  const above = (text: TerminalText) => {
    clear();
    write(tty`${text}\n`);
    draw();
  };

  return (event) => {
    switch (event.type) {
      case 'run-started':
        total = event.checks;
        expectedMs = event.expectedMs;
        startedAt = now();
        timer = setInterval(draw, REDRAW_MS);
        timer.unref();
        return draw();
      case 'check-finished': {
        done += 1;
        counts.set(event.grade, (counts.get(event.grade) ?? 0) + 1);
        waits.delete(event.id);
        if (event.grade === 'PASS' || event.grade === 'INFO') return draw();
        return above(checkLine(paint, event.id, event.grade, event.message, event.durationMs));
      }
      case 'wait-started':
        waits.set(event.id, { until: now() + event.ms, why: event.why });
        return draw();
      case 'wait-ended':
        waits.delete(event.id);
        return;
      case 'note':
        return above(terminalLines(event.text));
      case 'checks-ended':
        if (timer) clearInterval(timer);
        return clear();
    }
  };
};
