// What a response's RateLimit header fields say, whatever the dialect (core/ratelimit-dialects.ts): the quota
// policies declared, what remains and the seconds until a unit comes back. The draft's fields are Structured Field
// lists (RFC 9651), read with structured-headers rather than by hand; the older dialects are plain integers, with
// draft-03's `120, 120;w=60` quota policies in their Limit field.
import { type Item, parseList, Token } from 'structured-headers';
import {
  dialectsIn,
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
  /** Every RateLimit field of the answer, as sent: what evidence shows. */
  readonly fields: Readonly<Record<string, string>>;
  readonly policies: readonly QuotaPolicy[];
  readonly remaining?: number;
  /** Seconds until the quota resets, as the fields say it (an epoch reset is turned into seconds from `Date`). */
  readonly resetSeconds?: number;
  /** Why some field could not be read: what the reading leaves out. */
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

const itemsOf = (value: string | undefined, field: string): Item[] => {
  if (value === undefined) return [];
  try {
    return parseList(value).filter((member): member is Item => !Array.isArray(member[0]));
  } catch (error) {
    throw new Unreadable(`${field} is no Structured Field list: ${(error as Error).message}`);
  }
};

const readDraft = (headers: Readonly<Record<string, string>>): Values => {
  const policies = itemsOf(headers['ratelimit-policy'], 'RateLimit-Policy').flatMap((item): QuotaPolicy[] => {
    const quota = integerParam(item, 'q');
    if (quota === undefined) return [];
    const windowSeconds = integerParam(item, 'w');
    const name = nameOf(item);
    return [{ ...(name ? { name } : {}), quota, ...(windowSeconds === undefined ? {} : { windowSeconds }) }];
  });
  // The RateLimit item of the first policy named, else the first: a server sends one per policy it applies.
  const items = itemsOf(headers.ratelimit, 'RateLimit');
  const current = items.find((item) => nameOf(item) === policies[0]?.name) ?? items[0];
  const remaining = integerParam(current, 'r');
  const resetSeconds = integerParam(current, 't');
  return {
    policies,
    ...(remaining === undefined ? {} : { remaining }),
    ...(resetSeconds === undefined ? {} : { resetSeconds }),
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
  value !== undefined && INTEGER.test(value.trim()) ? Number(value.trim()) : undefined;

const readOlder = (
  headers: Readonly<Record<string, string>>,
  prefix: 'ratelimit' | 'x-ratelimit',
): Values => {
  const remaining = integerField(headers[`${prefix}-remaining`]);
  const reset = integerField(headers[`${prefix}-reset`]);
  const date = headers.date === undefined ? Number.NaN : Date.parse(headers.date) / 1000;
  const epoch = reset !== undefined && reset > EPOCH_FROM;
  // A Unix time is read against the server's own clock (its Date header), never ours: the two may differ by minutes.
  const resetSeconds = !epoch
    ? reset
    : Number.isNaN(date)
      ? undefined
      : Math.max(0, reset - Math.floor(date));
  return {
    policies: readLimit(headers[`${prefix}-limit`]),
    ...(remaining === undefined ? {} : { remaining }),
    ...(resetSeconds === undefined ? {} : { resetSeconds }),
    ...(epoch && resetSeconds === undefined
      ? { unreadable: `${prefix}-reset is a Unix time and the answer has no Date header to read it against` }
      : {}),
  };
};

const readDialect = (
  headers: Readonly<Record<string, string>>,
  dialect: RateLimitDialect,
): RateLimitReading => {
  const named = {
    dialect,
    says: RATELIMIT_DIALECTS[dialect].says,
    fields: rateLimitFieldsOf(headers, dialect),
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

/** One reading per dialect the answer's headers (lower-case names) carry, the draft's first; none for none. */
export const readRateLimitFields = (headers: Readonly<Record<string, string>>): RateLimitReading[] =>
  dialectsIn(headers).map((dialect) => readDialect(headers, dialect));

/**
 * The seconds until the quota resets, as the answer's first dialect says it; undefined where none says. Read as
 * Retry-After is (retryAfterSeconds), so either is a wait a 429 promises.
 */
export const rateLimitResetSeconds = (exchange: Exchange): number | undefined =>
  readRateLimitFields(exchange.headers)[0]?.resetSeconds;
