// Parsers for flag values: each rejects bad input with commander's InvalidArgumentError, which names the flag.

import { InvalidArgumentError } from 'commander';
import { didYouMean } from '../did-you-mean.ts';
import { REPORT_FORMATS, type ReportFormat } from '../report/write.ts';
import { MAX_SEED } from '../runner/types.ts';
import {
  BUCKETS,
  type BucketId,
  ENDPOINTS,
  type EndpointKey,
  type Limit,
  type Profile,
} from '../spec/index.ts';

export const positiveInt = (value: string): number => {
  if (!/^\d+$/.test(value) || Number(value) < 1)
    throw new InvalidArgumentError('expected a positive integer');
  return Number(value);
};

/** --seed: a positive integer no larger than a report records. */
export const seed = (value: string): number => {
  const number = positiveInt(value);
  if (number > MAX_SEED) throw new InvalidArgumentError(`expected a positive integer up to ${MAX_SEED}`);
  return number;
};

export const fraction = (value: string): number => {
  const number = Number(value);
  if (value.trim() === '' || !(number > 0 && number < 1))
    throw new InvalidArgumentError('expected a number between 0 and 1, e.g. 0.75');
  return number;
};

export const percent = (value: string): number => {
  const number = Number(value);
  if (value.trim() === '' || !(number >= 0))
    throw new InvalidArgumentError('expected a percentage, e.g. 2 or 0.5');
  return number;
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
    if (!allowed.includes(value as T))
      throw new InvalidArgumentError(`expected ${described}${didYouMean(value, allowed)}`);
    return value as T;
  };

export const list = (value: string): string[] =>
  value
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');

/** As the profile's side_effects: allow, deny, or the endpoint keys harness may call, comma-separated. */
export const sideEffects = (value: string): NonNullable<Profile['side_effects']> => {
  if (value === 'allow' || value === 'deny') return value;
  const keys = ENDPOINTS.map((e) => e.key);
  return list(value).map(
    oneOf<EndpointKey>(
      keys,
      `allow, deny, or endpoint keys such as '${ENDPOINTS.find((e) => e.sideEffects)?.key}'`,
    ),
  );
};

export const formats = (value: string): ReportFormat[] => list(value).map(oneOf(REPORT_FORMATS));

const MAX_TIMER_MS = 2 ** 31 - 1;

const UNIT_MS = { h: 3_600_000, m: 60_000, s: 1000, ms: 1 } as const;
/**
 * Go's and k6's notation, whole numbers only: `500ms`, `10s`, `1m30s`, `1h`. Each unit at most once, largest first,
 * so `90` (no unit), `1.5h` or `30s1m` is refused rather than guessed at. Hand-written: the libraries that read
 * durations also take `1.5 hours` or a bare number, which a flag should refuse.
 */
const DURATION = /^(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?(?:(\d+)ms)?$/;

/** A duration as people write it, in milliseconds. */
export const duration = (value: string): number => {
  const parts = DURATION.exec(value);
  const ms = (parts ?? [])
    .slice(1)
    .reduce((sum, part, i) => sum + (part === undefined ? 0 : Number(part) * Object.values(UNIT_MS)[i]!), 0);
  if (parts === null || ms === 0)
    throw new InvalidArgumentError('expected a duration such as 1h, 1m30s, 10s or 500ms');
  // Node's timers hold at most 2^31 - 1 ms (about 24.8 days); a longer one would fire at once.
  if (ms > MAX_TIMER_MS) throw new InvalidArgumentError(`at most ${(MAX_TIMER_MS / 3_600_000) | 0}h`);
  return ms;
};
