// Progress of a `harness load` run while k6 runs quietly. The plan's schedule drives it, which every k6 instance
// keeps (it starts each phase at the common start + startMs), so nothing of k6's output needs parsing: scheduleEvents
// turns the schedule, and what k6 has counted so far (its checkpoints, src/k6-driver/checkpoint.ts), into the run's
// events; src/terminal/load-progress.ts shows them.
import type { PhasePlan } from '../../core/plan.ts';
import type { EventStream } from '../events/stream.ts';

/** A phase under way, and its admitted and 429 answers a second over the last second (none until k6 counted two). */
export interface RunningPhase {
  readonly name: string;
  readonly perSecond?: { readonly admitted: number; readonly limited: number };
}

export type LoadEvent =
  | {
      readonly type: 'phase-started';
      readonly name: string;
      /** From 1, in schedule order, of `phases`. */
      readonly index: number;
      readonly phases: number;
      readonly startMs: number;
      readonly durationMs: number;
      readonly totalMs: number;
    }
  /** Where the schedule is, every tick. */
  | {
      readonly type: 'tick';
      readonly atMs: number;
      readonly totalMs: number;
      readonly running: readonly RunningPhase[];
    }
  /** k6 has exited, or a signal came: a live line must go before anything else is printed. */
  | { readonly type: 'phases-ended' }
  /** A line for the person watching: what the run is, what k6 said. */
  | { readonly type: 'note'; readonly text: string }
  /** The run is over: the finished run goes to the reporters (cli/load.ts), not through the stream. */
  | { readonly type: 'run-finished' };

type Scheduled = Pick<PhasePlan, 'name' | 'startMs' | 'durationMs'>;

/** Each phase's answers counted so far, admitted and 429, by phase name; undefined while k6 has counted nothing. */
export type PhaseCounts = () =>
  | ReadonlyMap<string, { readonly admitted: number; readonly limited: number }>
  | undefined;

/** How often the rates are read: k6 counts anew each second. */
const RATE_MS = 1000;

/** Emits the schedule's events from `startAt` (epoch ms) until stopped (k6 exited, or a signal came). */
export const scheduleEvents = (
  phases: readonly Scheduled[],
  startAt: number,
  events: Pick<EventStream<LoadEvent>, 'emit'>,
  {
    now = Date.now,
    tickMs = 250,
    counts,
  }: { now?: () => number; tickMs?: number; counts?: PhaseCounts } = {},
): { stop(): void } => {
  // The counts a second ago and now: the rate is their difference over the time between.
  let before: { at: number; counts: ReturnType<PhaseCounts> } | undefined;
  let latest: typeof before;
  const running = (name: string): RunningPhase => {
    const [then, last] = [before?.counts?.get(name), latest?.counts?.get(name)];
    if (then === undefined || last === undefined || before === undefined || latest === undefined)
      return { name };
    const span = (latest.at - before.at) / 1000;
    if (span <= 0) return { name };
    const rate = (n: number) => Math.round(n / span);
    return {
      name,
      perSecond: {
        admitted: rate(last.admitted - then.admitted),
        limited: rate(last.limited - then.limited),
      },
    };
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
  const tick = () => {
    const at = now() - startAt;
    if (at < 0) return;
    // Every phase whose start has come, even one shorter than a tick, is announced, in schedule order.
    for (const [i, phase] of ordered.entries()) {
      if (phase.startMs > at || announced.has(phase)) continue;
      announced.add(phase);
      events.emit({ type: 'phase-started', ...phase, index: i + 1, phases: ordered.length, totalMs });
    }
    readCounts();
    const under = ordered
      .filter((p) => p.startMs <= at && at < p.startMs + p.durationMs)
      .map((p) => running(p.name));
    events.emit({ type: 'tick', atMs: Math.min(at, totalMs), totalMs, running: under });
  };
  const timer = setInterval(tick, tickMs);
  // The timer never keeps harness alive on its own: k6's exit (or a signal) ends the run, and stop() the events.
  timer.unref();
  let stopped = false;
  return {
    stop: () => {
      clearInterval(timer);
      if (!stopped) events.emit({ type: 'phases-ended' });
      stopped = true;
    },
  };
};
