// Progress on a terminal, as k6 shows it: one line rewritten in place (checks done of all, FAILs so far, time
// left, and the longest wait under way), with each check that did not pass printed above it as it finishes.
// Off a terminal, streamProgress (progress.ts) writes a line per event instead, which a CI log keeps.
import { type GradePainter, gradePainter } from './colour.ts';
import type { Grade } from './grades.ts';
import { type Progress, sleep } from './progress.ts';

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
): Progress => {
  let total = 0;
  let expectedMs = 0;
  let startedAt = now();
  let done = 0;
  const counts = new Map<Grade, number>();
  const waits = new Map<string, { until: number; why: string }>();
  let shown = false;
  let timer: NodeJS.Timeout | undefined;

  const status = (): string => {
    const failed = counts.get('FAIL') ?? 0;
    const undecided = counts.get('INCONCLUSIVE') ?? 0;
    const left = expectedMs - (now() - startedAt);
    const [id, wait] = [...waits.entries()].sort((a, b) => b[1].until - a[1].until)[0] ?? [];
    const line =
      `conformance: ${done} of ${total} checks, ${failed > 0 ? paint('FAIL', `${failed} FAIL`) : '0 FAIL'}` +
      `${undecided > 0 ? `, ${undecided} INCONCLUSIVE` : ''}, about ${seconds(left)} left` +
      `${wait ? `; ${id} waiting ${seconds(wait.until - now())} ${wait.why}` : ''}`;
    const width = terminal.columns ?? 120;
    return line.length > width ? `${line.slice(0, width - 1)}…` : line;
  };
  const clear = () => {
    if (shown) terminal.write('\r\x1b[2K');
    shown = false;
  };
  const draw = () => {
    clear();
    if (total === 0) return;
    terminal.write(status());
    shown = true;
  };
  const above = (text: string) => {
    clear();
    terminal.write(`${text}\n`);
    draw();
  };

  return {
    begin: (checks, ms) => {
      total = checks;
      expectedMs = ms;
      startedAt = now();
      timer = setInterval(draw, REDRAW_MS);
      timer.unref();
      draw();
    },
    started: () => {},
    finished: (id, grade, message, durationMs) => {
      done += 1;
      counts.set(grade, (counts.get(grade) ?? 0) + 1);
      waits.delete(id);
      if (grade === 'PASS' || grade === 'INFO') draw();
      else above(`  ${paint(grade, grade.padEnd(12))} ${id} (${Math.round(durationMs)} ms): ${message}`);
    },
    waiting: async (id, ms, why, signal) => {
      waits.set(id, { until: now() + ms, why });
      draw();
      try {
        await sleep(ms, signal);
      } finally {
        waits.delete(id);
      }
    },
    line: above,
    end: () => {
      if (timer) clearInterval(timer);
      clear();
    },
  };
};
