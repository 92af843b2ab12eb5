// The one source of time for a run: the runner, its HTTP client and the reference server read and wait through a
// Clock, so a test can hand them all one virtual clock (test/support/simulation/) and a run waits for nothing real.
import { setTimeout as delay } from 'node:timers/promises';

export interface Clock {
  /** Epoch milliseconds, with sub-millisecond resolution; never goes back within a run. */
  now(): number;
  /** Resolves after `ms`; rejects as soon as `signal` aborts, so an ended run leaves no timer holding the process. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const REAL_CLOCK: Clock = {
  now: () => performance.timeOrigin + performance.now(),
  sleep: (ms, signal) => delay(Math.max(0, ms), undefined, signal === undefined ? {} : { signal }),
};
