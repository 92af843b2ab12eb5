// Progress of a `harness load` run while k6 runs quietly: on a terminal one line that updates in place, in a CI
// log a plain line as each phase starts. Driven by the plan's schedule, which every k6 instance keeps (it starts each
// phase at the common start + startMs), so nothing of k6's output needs parsing; on a terminal, the admitted and 429
// rates of the phases under way come from what k6 has counted so far (its checkpoints, src/k6-driver/checkpoint.ts).
import type { PhasePlan } from '../../core/plan.ts';

export interface ProgressOutput {
  readonly isTTY?: boolean;
  write(text: string): unknown;
}

export interface Progress {
  /** Erases the updating line, so that a line printed next starts at the left margin (the next tick redraws). */
  clear(): void;
  stop(): void;
}

type Scheduled = Pick<PhasePlan, 'name' | 'startMs' | 'durationMs'>;

/** Each phase's answers counted so far, admitted and 429, by phase name; undefined while k6 has counted nothing. */
export type PhaseCounts = () =>
  | ReadonlyMap<string, { readonly admitted: number; readonly limited: number }>
  | undefined;

/** How often the rates are read: k6 counts anew each second. */
const RATE_MS = 1000;

const ERASE_LINE = '\r\x1b[2K';
const seconds = (ms: number) => `${Math.round(ms / 1000)} s`;

export const startProgress = (
  phases: readonly Scheduled[],
  startAt: number,
  output: ProgressOutput,
  {
    now = Date.now,
    tickMs = 250,
    counts,
  }: { now?: () => number; tickMs?: number; counts?: PhaseCounts } = {},
): Progress => {
  // The counts a second ago and now: the rate is their difference over the time between.
  let before: { at: number; counts: ReturnType<PhaseCounts> } | undefined;
  let latest: typeof before;
  const rateOf = (name: string): string => {
    const [then, last] = [before?.counts?.get(name), latest?.counts?.get(name)];
    if (then === undefined || last === undefined || before === undefined || latest === undefined) return name;
    const span = (latest.at - before.at) / 1000;
    if (span <= 0) return name;
    const perSecond = (n: number) => Math.round(n / span);
    return `${name} ${perSecond(last.admitted - then.admitted)} admitted/s, ${perSecond(last.limited - then.limited)} 429/s`;
  };
  const readCounts = () => {
    const at = now();
    if (counts === undefined || (latest !== undefined && at - latest.at < RATE_MS)) return;
    before = latest;
    latest = { at, counts: counts() };
  };
  const totalMs = Math.max(0, ...phases.map((p) => p.startMs + p.durationMs));
  const ordered = [...phases].sort((a, b) => a.startMs - b.startMs);
  const announced = new Set<Scheduled>();
  let drawn = false;
  let shown = '';
  const clear = () => {
    if (drawn) output.write(ERASE_LINE);
    drawn = false;
  };
  const tick = () => {
    const at = now() - startAt;
    if (at < 0) return;
    if (output.isTTY) {
      readCounts();
      const running = ordered
        .filter((p) => p.startMs <= at && at < p.startMs + p.durationMs)
        .map((p) => rateOf(p.name));
      const where =
        running.length > 0 ? running.join(', ') : at < totalMs ? 'between phases' : 'k6 finishing';
      const line = `load: ${seconds(Math.min(at, totalMs))} of ${seconds(totalMs)}: ${where}`;
      // Redrawn only when it changes: a terminal log (script, tmux) keeps every write.
      if (!drawn || line !== shown) output.write(`${ERASE_LINE}${line}`);
      drawn = true;
      shown = line;
      return;
    }
    // Every phase whose start has come, even one shorter than a tick, gets its line, in schedule order.
    for (const [i, phase] of ordered.entries()) {
      if (phase.startMs > at || announced.has(phase)) continue;
      announced.add(phase);
      output.write(
        `load: phase ${phase.name} started (${i + 1} of ${ordered.length}, ` +
          `${seconds(phase.durationMs)}, at ${seconds(phase.startMs)} of ${seconds(totalMs)})\n`,
      );
    }
  };
  const timer = setInterval(tick, tickMs);
  // The timer never keeps harness alive on its own: k6's exit (or a signal) ends the run, and stop() the line.
  timer.unref();
  return {
    clear,
    stop: () => {
      clearInterval(timer);
      clear();
    },
  };
};
