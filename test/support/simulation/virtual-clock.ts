// Virtual time for a whole conformance run, in the manner of deterministic simulation testing: the runner, its HTTP
// client, the simulated network and the reference server all read and wait through this clock, and time moves only
// when everything in the process is waiting on it, straight to the earliest wait's end. A run that takes minutes of
// windows takes only the CPU it needs, and the same seed replays it exactly.
import type { Clock } from '../../../src/clock.ts';

interface Timer {
  readonly due: number;
  /** Ties break by order of asking, so equal due times wake in one order every run. */
  readonly order: number;
  readonly wake: () => void;
  cancelled: boolean;
}

/** Turns of the event loop with nothing new before time may move: streams hand data on over a few of them. */
const QUIET_TURNS = 3;

const earlier = (a: Timer, b: Timer) => a.due - b.due || a.order - b.order;

export class VirtualClock implements Clock {
  #now: number;
  readonly #timers: Timer[] = [];
  #order = 0;
  /** Changes whenever something is asked of the clock: a turn with no change and nothing real pending is quiet. */
  #activity = 0;
  /** Work on real time the clock must let finish before moving (WebCrypto's signing runs on libuv's threads). */
  #pendingReal = 0;

  constructor(start: number) {
    this.#now = start;
  }

  readonly now = (): number => this.#now;

  readonly sleep = (ms: number, signal?: AbortSignal): Promise<void> =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(abortError(signal));
      this.#activity += 1;
      const timer: Timer = {
        due: this.#now + Math.max(0, ms),
        order: this.#order++,
        wake: () => {
          signal?.removeEventListener('abort', cancel);
          resolve();
        },
        cancelled: false,
      };
      const cancel = () => {
        timer.cancelled = true;
        this.#activity += 1;
        reject(abortError(signal!));
      };
      signal?.addEventListener('abort', cancel, { once: true });
      this.#insert(timer);
    });

  /** `work` runs on real time: the clock holds still until it settles. */
  track<T>(work: Promise<T>): Promise<T> {
    this.#pendingReal += 1;
    this.#activity += 1;
    return work.finally(() => {
      this.#pendingReal -= 1;
      this.#activity += 1;
    });
  }

  /** Runs `work` to its end, moving time each time the process has nothing left to do but wait. */
  async run<T>(work: Promise<T>): Promise<T> {
    let settled = false;
    const done = work.finally(() => {
      settled = true;
    });
    done.catch(() => undefined);
    for (;;) {
      await this.#quiet();
      if (settled) return done;
      const next = this.#next();
      if (next === undefined)
        throw new Error('virtual clock: the run waits, but on nothing that time would end');
      this.#now = Math.max(this.#now, next.due);
      next.wake();
    }
  }

  async #quiet(): Promise<void> {
    for (let quiet = 0; quiet < QUIET_TURNS; ) {
      const before = this.#activity;
      await new Promise<void>((resolve) => setImmediate(resolve));
      quiet = this.#pendingReal === 0 && before === this.#activity ? quiet + 1 : 0;
    }
  }

  /** A binary heap by due time: a run sets tens of thousands of timers. */
  #insert(timer: Timer): void {
    const heap = this.#timers;
    heap.push(timer);
    for (let i = heap.length - 1; i > 0; ) {
      const parent = (i - 1) >> 1;
      if (earlier(heap[parent]!, heap[i]!) <= 0) break;
      [heap[parent], heap[i]] = [heap[i]!, heap[parent]!];
      i = parent;
    }
  }

  #next(): Timer | undefined {
    const heap = this.#timers;
    while (heap.length > 0) {
      const top = heap[0]!;
      const last = heap.pop()!;
      if (heap.length > 0) {
        heap[0] = last;
        for (let i = 0; ; ) {
          const [l, r] = [2 * i + 1, 2 * i + 2];
          let least = i;
          if (l < heap.length && earlier(heap[l]!, heap[least]!) < 0) least = l;
          if (r < heap.length && earlier(heap[r]!, heap[least]!) < 0) least = r;
          if (least === i) break;
          [heap[least], heap[i]] = [heap[i]!, heap[least]!];
          i = least;
        }
      }
      if (!top.cancelled) return top;
    }
    return undefined;
  }
}

/**
 * What node:timers/promises rejects an aborted wait with, so callers see one kind of abort either way. Without a
 * stack: every request's timeout is such a wait, cancelled when its answer comes, and capturing a stack for each was
 * a tenth of a simulated run's CPU.
 */
const abortError = (signal: AbortSignal): Error => {
  const { stackTraceLimit } = Error;
  Error.stackTraceLimit = 0;
  try {
    return Object.assign(new Error('The operation was aborted', { cause: signal.reason }), {
      name: 'AbortError',
      code: 'ABORT_ERR',
    });
  } finally {
    Error.stackTraceLimit = stackTraceLimit;
  }
};
