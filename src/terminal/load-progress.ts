// The load run's events (src/k6-driver/load-events.ts) on the terminal: one line that updates in place on a TTY, a
// line per phase in a CI log.
import type { Listener } from '../events/stream.ts';
import type { LoadEvent, RunningPhase } from '../k6-driver/load-events.ts';
import {
  ERASE_LINE,
  joinTerminal,
  type TerminalText,
  terminalLines,
  terminalSink,
  tty,
} from '../printable.ts';

export interface ProgressOutput {
  readonly isTTY?: boolean;
  write(text: string): unknown;
}

const seconds = (ms: number) => `${Math.round(ms / 1000)} s`;

const runningText = ({ name, perSecond }: RunningPhase): TerminalText =>
  perSecond === undefined
    ? tty`${name}`
    : tty`${name} ${perSecond.admitted} admitted/s, ${perSecond.limited} 429/s`;

/** The terminal's listener: on a TTY one line rewritten in place, elsewhere a line per phase as it starts. */
export const loadTerminal = (output: ProgressOutput): Listener<LoadEvent> => {
  let drawn = false;
  let shown = '';
  // Phase names come from the plan file and notes from k6: every write escapes them (printable.ts).
  const write = terminalSink((raw) => output.write(raw));
  const clear = () => {
    if (drawn) write(ERASE_LINE);
    drawn = false;
  };
  return (event) => {
    switch (event.type) {
      case 'phase-started':
        if (output.isTTY) return;
        write(
          tty`load: phase ${event.name} started (${event.index} of ${event.phases}, ${seconds(event.durationMs)}, at ${seconds(event.startMs)} of ${seconds(event.totalMs)})\n`,
        );
        return;
      case 'tick': {
        if (!output.isTTY) return;
        const where =
          event.running.length > 0
            ? joinTerminal(event.running.map(runningText), ', ')
            : event.atMs < event.totalMs
              ? 'between phases'
              : 'k6 finishing';
        const line = tty`load: ${seconds(event.atMs)} of ${seconds(event.totalMs)}: ${where}`;
        // Redrawn only when it changes: a terminal log (script, tmux) keeps every write.
        if (!drawn || line.text !== shown) write(tty`${ERASE_LINE}${line}`);
        drawn = true;
        shown = line.text;
        return;
      }
      case 'note':
        clear();
        write(tty`${terminalLines(event.text)}\n`);
        return;
      case 'phases-ended':
        return clear();
    }
  };
};
