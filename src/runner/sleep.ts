import { setTimeout as delay } from 'node:timers/promises';

/** Resolves after `ms`; rejects as soon as `signal` aborts, so a run that ended leaves no timer holding the process. */
export const sleep = (ms: number, signal?: AbortSignal): Promise<void> =>
  delay(Math.max(0, ms), undefined, signal === undefined ? {} : { signal });
