// Parsers for flag values: each rejects bad input with commander's InvalidArgumentError, which names the flag.
import { InvalidArgumentError } from 'commander';
import { REPORT_FORMATS, type ReportFormat } from '../report/write.ts';
import { BUCKETS, type BucketId, type Limit } from '../spec/index.ts';

export const positiveInt = (value: string): number => {
  if (!/^\d+$/.test(value) || Number(value) < 1)
    throw new InvalidArgumentError('expected a positive integer');
  return Number(value);
};

export const port = (value: string): number => {
  if (!/^\d+$/.test(value) || Number(value) > 65535)
    throw new InvalidArgumentError('expected a port 0-65535');
  return Number(value);
};

export type LimitOverrides = Partial<Record<BucketId, Limit>>;

/** `BUCKET=COUNT/second|minute`, repeatable; e.g. `transaction-event=430/second`. */
export const limitOverride = (value: string, previous: LimitOverrides = {}): LimitOverrides => {
  const match = /^([a-z-]+)=(\d+)\/(second|minute)$/.exec(value);
  if (!match) throw new InvalidArgumentError('expected BUCKET=COUNT/second or BUCKET=COUNT/minute');
  const [, bucket, count, per] = match as unknown as [string, string, string, Limit['per']];
  if (!(bucket in BUCKETS)) {
    throw new InvalidArgumentError(`unknown bucket '${bucket}' (one of ${Object.keys(BUCKETS).join(', ')})`);
  }
  if (Number(count) < 1) throw new InvalidArgumentError('count must be at least 1');
  return { ...previous, [bucket]: { count: Number(count), per } };
};

/** `described` replaces the list in the error when the list is too long for one line. */
export const oneOf =
  <T extends string>(allowed: readonly T[], described = `one of ${allowed.join(', ')}`) =>
  (value: string): T => {
    if (!allowed.includes(value as T)) throw new InvalidArgumentError(`expected ${described}`);
    return value as T;
  };

export const list = (value: string): string[] =>
  value
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');

export const formats = (value: string): ReportFormat[] => list(value).map(oneOf(REPORT_FORMATS));

const MAX_TIMER_MS = 2 ** 31 - 1;

/** `500ms`, `10s`, `3m`: milliseconds. */
export const duration = (value: string): number => {
  const match = /^(\d+)(ms|s|m)$/.exec(value);
  if (!match || Number(match[1]) === 0)
    throw new InvalidArgumentError('expected a duration such as 10s, 3m or 500ms');
  const ms = Number(match[1]) * { ms: 1, s: 1000, m: 60_000 }[match[2] as 'ms' | 's' | 'm'];
  // Node's timers hold at most 2^31 - 1 ms (about 24.8 days); a longer one would fire at once.
  if (ms > MAX_TIMER_MS) throw new InvalidArgumentError(`at most ${(MAX_TIMER_MS / 60_000) | 0}m`);
  return ms;
};
