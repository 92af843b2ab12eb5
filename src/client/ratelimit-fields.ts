// What a response's RateLimit header fields say, whatever the dialect (core/ratelimit-dialects.ts): the quota
// policies declared, what remains and the seconds until a unit comes back. The draft's fields are Structured Field
// lists (RFC 9651), read with structured-headers rather than by hand; the older dialects are plain integers, with
// draft-03's `120, 120;w=60` quota policies in their Limit field. Every field is read within the bounds of
// core/ratelimit-dialects.ts (its first kilobyte, 16 members), and each answer once, however many checks ask.
import { type Item, parseList, Token } from 'structured-headers';
import {
  boundedList,
  dialectsIn,
  fieldTooLarge,
  MAX_RATELIMIT_FIELD_BYTES,
  RATELIMIT_DIALECTS,
  type RateLimitDialect,
  rateLimitFieldsOf,
} from '../../core/ratelimit-dialects.ts';
import type { Exchange } from './evidence.ts';

export interface QuotaPolicy {
  /** The draft's policy name; the older dialects name none. */
  readonly name?: string;
  readonly quota: number;
  /** Declared window in seconds; the older dialects may leave it out. */
  readonly windowSeconds?: number;
}

export interface RateLimitReading {
  readonly dialect: RateLimitDialect;
  /** The dialect in words, for messages. */
  readonly says: string;
  /**
   * Every RateLimit field of the answer, as sent, for messages to quote: one past MAX_RATELIMIT_FIELD_BYTES is cut
   * there and says so (the exchange's evidence keeps it within its own bound).
   */
  readonly fields: Readonly<Record<string, string>>;
  readonly policies: readonly QuotaPolicy[];
  readonly remaining?: number;
  /** Seconds until the quota resets, as the fields say it (an epoch reset is turned into seconds from `Date`). */
  readonly resetSeconds?: number;
  /** Why some field could not be read, or not all of it (too large): what the reading leaves out. */
  readonly unreadable?: string;
}

/** What one dialect's fields say. */
type Values = Omit<RateLimitReading, 'dialect' | 'says' | 'fields'>;

const INTEGER = /^\d{1,15}$/;
/** X-RateLimit-Reset above this is a Unix time (GitHub), not a number of seconds (Envoy). */
const EPOCH_FROM = 1e9;

const integerParam = (item: Item | undefined, key: string): number | undefined => {
  const value = item?.[1].get(key);
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : undefined;
};

/** A policy's name: the draft writes a String, some servers a Token. */
const nameOf = (item: Item): string | undefined =>
  typeof item[0] === 'string' ? item[0] : item[0] instanceof Token ? item[0].toString() : undefined;

/** A field that is not what its dialect says it is: the reading says why and leaves the dialect's values out. */
class Unreadable extends Error {}

/** The list's items within the bounds, and what of it was not read. */
const itemsOf = (value: string | undefined, field: string): { items: Item[]; notRead?: string } => {
  if (value === undefined) return { items: [] };
  const bounded = boundedList(value, field);
  try {
    const items = parseList(bounded.value).filter((member): member is Item => !Array.isArray(member[0]));
    return { items, ...(bounded.notRead === undefined ? {} : { notRead: bounded.notRead }) };
  } catch (error) {
    throw new Unreadable(`${field} is no Structured Field list: ${(error as Error).message}`);
  }
};

const readDraft = (headers: Readonly<Record<string, string>>): Values => {
  const declared = itemsOf(headers['ratelimit-policy'], 'RateLimit-Policy');
  const policies = declared.items.flatMap((item): QuotaPolicy[] => {
    const quota = integerParam(item, 'q');
    if (quota === undefined) return [];
    const windowSeconds = integerParam(item, 'w');
    const name = nameOf(item);
    return [{ ...(name ? { name } : {}), quota, ...(windowSeconds === undefined ? {} : { windowSeconds }) }];
  });
  // The RateLimit item of the first policy named, else the first: a server sends one per policy it applies.
  const said = itemsOf(headers.ratelimit, 'RateLimit');
  const current = said.items.find((item) => nameOf(item) === policies[0]?.name) ?? said.items[0];
  const remaining = integerParam(current, 'r');
  const resetSeconds = integerParam(current, 't');
  const notRead = [declared.notRead, said.notRead].filter((why) => why !== undefined);
  return {
    policies,
    ...(remaining === undefined ? {} : { remaining }),
    ...(resetSeconds === undefined ? {} : { resetSeconds }),
    ...(notRead.length === 0 ? {} : { unreadable: notRead.join('; ') }),
  };
};

/** `120` or draft-03's `120, 120;w=60`: the first number is the quota, a `w` parameter its window. */
const readLimit = (value: string | undefined): QuotaPolicy[] => {
  const match = value === undefined ? null : /^\s*(\d{1,15})\s*(?:,.*?;\s*w=(\d{1,15}))?/.exec(value);
  if (match === null) return [];
  return [
    { quota: Number(match[1]), ...(match[2] === undefined ? {} : { windowSeconds: Number(match[2]) }) },
  ];
};

const integerField = (value: string | undefined): number | undefined =>
  value !== undefined && value.length <= MAX_RATELIMIT_FIELD_BYTES && INTEGER.test(value.trim())
    ? Number(value.trim())
    : undefined;

const readOlder = (
  headers: Readonly<Record<string, string>>,
  prefix: 'ratelimit' | 'x-ratelimit',
): Values => {
  const limit = headers[`${prefix}-limit`];
  const quota = limit === undefined ? undefined : boundedList(limit, `${prefix}-limit`);
  const integers = [`${prefix}-remaining`, `${prefix}-reset`];
  const remaining = integerField(headers[integers[0]!]);
  const reset = integerField(headers[integers[1]!]);
  const date = headers.date === undefined ? Number.NaN : Date.parse(headers.date) / 1000;
  const epoch = reset !== undefined && reset > EPOCH_FROM;
  // A Unix time is read against the server's own clock (its Date header), never ours: the two may differ by minutes.
  const resetSeconds = !epoch
    ? reset
    : Number.isNaN(date)
      ? undefined
      : Math.max(0, reset - Math.floor(date));
  const notRead = [
    ...(quota?.notRead === undefined ? [] : [quota.notRead]),
    ...integers.flatMap((name) => {
      const bytes = headers[name]?.length ?? 0;
      return bytes > MAX_RATELIMIT_FIELD_BYTES ? [`${fieldTooLarge(name, bytes)}: none of it was read`] : [];
    }),
    ...(epoch && resetSeconds === undefined
      ? [`${prefix}-reset is a Unix time and the answer has no Date header to read it against`]
      : []),
  ];
  return {
    policies: readLimit(quota?.value),
    ...(remaining === undefined ? {} : { remaining }),
    ...(resetSeconds === undefined ? {} : { resetSeconds }),
    ...(notRead.length === 0 ? {} : { unreadable: notRead.join('; ') }),
  };
};

const quotable = (value: string): string =>
  value.length <= MAX_RATELIMIT_FIELD_BYTES
    ? value
    : `${value.slice(0, MAX_RATELIMIT_FIELD_BYTES)}… (cut: ${value.length} bytes in all)`;

const readDialect = (
  headers: Readonly<Record<string, string>>,
  dialect: RateLimitDialect,
): RateLimitReading => {
  const named = {
    dialect,
    says: RATELIMIT_DIALECTS[dialect].says,
    fields: Object.fromEntries(
      Object.entries(rateLimitFieldsOf(headers, dialect)).map(([name, value]) => [name, quotable(value)]),
    ),
  };
  try {
    const read =
      dialect === 'draft'
        ? readDraft(headers)
        : readOlder(headers, dialect === 'triple' ? 'ratelimit' : 'x-ratelimit');
    return { ...named, ...read };
  } catch (error) {
    if (!(error instanceof Unreadable)) throw error;
    return { ...named, policies: [], unreadable: error.message };
  }
};

// An answer's headers are never changed once received, so its reading is kept with them: the probe's retry tests
// and four checks read the same answers again and again.
const readings = new WeakMap<Readonly<Record<string, string>>, readonly RateLimitReading[]>();

/** One reading per dialect the answer's headers (lower-case names) carry, the draft's first; none for none. */
export const readRateLimitFields = (
  headers: Readonly<Record<string, string>>,
): readonly RateLimitReading[] => {
  let reading = readings.get(headers);
  if (reading === undefined) {
    reading = dialectsIn(headers).map((dialect) => readDialect(headers, dialect));
    readings.set(headers, reading);
  }
  return reading;
};

/**
 * The seconds until the quota resets, as the answer's first dialect says it; undefined where none says. Read as
 * Retry-After is (retryAfterSeconds), so either is a wait a 429 promises.
 */
export const rateLimitResetSeconds = (exchange: Exchange): number | undefined =>
  readRateLimitFields(exchange.headers)[0]?.resetSeconds;
