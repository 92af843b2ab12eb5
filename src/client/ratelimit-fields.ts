// What a response's RateLimit header fields say, whatever the dialect (core/ratelimit-dialects.ts): the quota
// policies declared, what remains and the seconds until a unit comes back. The drafts' fields are Structured Fields
// (RFC 9651: the lists of -08 on, draft -07's Dictionary, the older `120;w=60` policy), read with structured-headers
// rather than by hand; the triple and X-RateLimit-* are plain integers, with draft-03's `120, 120;w=60` quota policies
// in their Limit field. Every field is read within the bounds of core/ratelimit-dialects.ts (its first kilobyte, 16
// members), and each answer once, however many checks ask.
import { type Item, parseDictionary, parseList, Token } from 'structured-headers';
import {
  boundedList,
  dialectsIn,
  fieldTooLarge,
  firstThrottler,
  MAX_RATELIMIT_FIELD_BYTES,
  RATELIMIT_DIALECTS,
  type RateLimitDialect,
  rateLimitFieldsOf,
  xFieldName,
  xFieldOf,
} from '../../core/ratelimit-dialects.ts';
import type { Exchange } from './evidence.ts';

export interface QuotaPolicy {
  /** The policy's name: the lists', or a named throttler's (X-RateLimit-Limit-<name>); the others name none. */
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
   * The names (lower case) of the answer's RateLimit fields. Their values are for messages to quote from the
   * exchange's evidence only, redacted and cut there at once (evidence.ts): a value cut first and redacted after
   * could show the start of a secret that straddles the cut.
   */
  readonly fieldNames: readonly string[];
  readonly policies: readonly QuotaPolicy[];
  readonly remaining?: number;
  /** Seconds until the quota resets, as the fields say it (an epoch reset is turned into seconds from `Date`). */
  readonly resetSeconds?: number;
  /** Why some field could not be read, or not all of it (too large): what the reading leaves out. */
  readonly unreadable?: string;
  /** The field of a named throttler's own Retry-After (`Retry-After-<name>`): not SPEC.md §8 rule 2's Retry-After. */
  readonly namedRetryAfter?: string;
}

/** What one dialect's fields say. */
type Values = Omit<RateLimitReading, 'dialect' | 'says' | 'fieldNames'>;
type Fields = Readonly<Record<string, string>>;

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

const readDraft = (fields: Fields): Values => {
  const declared = itemsOf(fields['ratelimit-policy'], 'RateLimit-Policy');
  const policies = declared.items.flatMap((item): QuotaPolicy[] => {
    const quota = integerParam(item, 'q');
    if (quota === undefined) return [];
    const windowSeconds = integerParam(item, 'w');
    const name = nameOf(item);
    return [{ ...(name ? { name } : {}), quota, ...(windowSeconds === undefined ? {} : { windowSeconds }) }];
  });
  // The RateLimit item of the first policy named, else the first: a server sends one per policy it applies.
  const said = itemsOf(fields.ratelimit, 'RateLimit');
  const current = said.items.find((item) => nameOf(item) === policies[0]?.name) ?? said.items[0];
  const remaining = integerParam(current, 'r');
  const resetSeconds = integerParam(current, 't');
  return {
    policies,
    ...(remaining === undefined ? {} : { remaining }),
    ...(resetSeconds === undefined ? {} : { resetSeconds }),
    ...notReadOf([declared.notRead, said.notRead]),
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

/** What a reading leaves out, joined; nothing where all was read. */
const notReadOf = (whys: readonly (string | undefined)[]): { unreadable?: string } => {
  const said = whys.filter((why) => why !== undefined);
  return said.length === 0 ? {} : { unreadable: said.join('; ') };
};

/** The older drafts' RateLimit-Policy (`120;w=60`): an Integer quota and its window, no name. */
const olderPolicies = (value: string | undefined): { policies: QuotaPolicy[]; notRead?: string } => {
  const declared = itemsOf(value, 'RateLimit-Policy');
  const policies = declared.items.flatMap((item): QuotaPolicy[] => {
    const [quota] = item;
    if (typeof quota !== 'number' || !Number.isInteger(quota) || quota < 0) return [];
    const windowSeconds = integerParam(item, 'w');
    return [{ quota, ...(windowSeconds === undefined ? {} : { windowSeconds }) }];
  });
  return { policies, ...(declared.notRead === undefined ? {} : { notRead: declared.notRead }) };
};

/** The policies of RateLimit-Policy, and each quota a Limit field states that none of them does. */
const withLimits = (declared: readonly QuotaPolicy[], limits: readonly QuotaPolicy[]): QuotaPolicy[] => [
  ...declared,
  ...limits.filter((limit) => !declared.some((p) => p.quota === limit.quota)),
];

/** Draft -07: `RateLimit: limit=120, remaining=5, reset=30`, a Dictionary, and the older RateLimit-Policy. */
const readDraft7 = (fields: Fields): Values => {
  const declared = olderPolicies(fields['ratelimit-policy']);
  const value = fields.ratelimit;
  const bounded = value === undefined ? undefined : boundedList(value, 'RateLimit');
  let members: Map<string, unknown>;
  try {
    members = new Map(bounded === undefined ? [] : parseDictionary(bounded.value));
  } catch (error) {
    throw new Unreadable(`RateLimit is no Structured Field Dictionary: ${(error as Error).message}`);
  }
  const integer = (key: string): number | undefined => {
    const member = members.get(key);
    const [item] = Array.isArray(member) ? member : [];
    return typeof item === 'number' && Number.isInteger(item) && item >= 0 ? item : undefined;
  };
  const limit = integer('limit');
  const remaining = integer('remaining');
  const resetSeconds = integer('reset');
  return {
    policies: withLimits(declared.policies, limit === undefined ? [] : [{ quota: limit }]),
    ...(remaining === undefined ? {} : { remaining }),
    ...(resetSeconds === undefined ? {} : { resetSeconds }),
    ...notReadOf([declared.notRead, bounded?.notRead]),
  };
};

/** The fields of the triple or of X-RateLimit-* that one reading takes. */
interface OlderNames {
  readonly limits: readonly { readonly field: string; readonly name?: string }[];
  readonly remaining: string;
  readonly reset: string;
}

const readOlder = (fields: Fields, headers: Fields, names: OlderNames): Values => {
  const limits = names.limits.flatMap(({ field, name }) => {
    const value = fields[field];
    return value === undefined ? [] : [{ field, name, bounded: boundedList(value, field) }];
  });
  const integers = [names.remaining, names.reset];
  const remaining = integerField(fields[names.remaining]);
  const reset = integerField(fields[names.reset]);
  const date = headers.date === undefined ? Number.NaN : Date.parse(headers.date) / 1000;
  const epoch = reset !== undefined && reset > EPOCH_FROM;
  // A Unix time is read against the server's own clock (its Date header), never ours: the two may differ by minutes.
  const resetSeconds = !epoch
    ? reset
    : Number.isNaN(date)
      ? undefined
      : Math.max(0, reset - Math.floor(date));
  const declared = olderPolicies(fields['ratelimit-policy']);
  const stated = limits.flatMap(({ name, bounded }) =>
    readLimit(bounded.value).map((p) => (name === undefined ? p : { name, ...p })),
  );
  return {
    policies: withLimits(declared.policies, stated),
    ...(remaining === undefined ? {} : { remaining }),
    ...(resetSeconds === undefined ? {} : { resetSeconds }),
    ...notReadOf([
      declared.notRead,
      ...limits.map(({ bounded }) => bounded.notRead),
      ...integers.map((name) => {
        const bytes = fields[name]?.length ?? 0;
        return bytes > MAX_RATELIMIT_FIELD_BYTES
          ? `${fieldTooLarge(name, bytes)}: none of it was read`
          : undefined;
      }),
      epoch && resetSeconds === undefined
        ? `${names.reset} is a Unix time and the answer has no Date header to read it against`
        : undefined,
    ]),
  };
};

const TRIPLE_NAMES: OlderNames = {
  limits: [{ field: 'ratelimit-limit' }],
  remaining: 'ratelimit-remaining',
  reset: 'ratelimit-reset',
};

/** X-RateLimit-*: every throttler's Limit, the first one's Remaining and Reset, and a named Retry-After. */
const readX = (fields: Fields, headers: Fields): Values => {
  const { name } = firstThrottler(fields);
  const limits = Object.keys(fields).flatMap((field) => {
    const x = xFieldOf(field);
    return x?.part === 'limit' ? [{ field, ...(x.name === undefined ? {} : { name: x.name }) }] : [];
  });
  const read = readOlder(fields, headers, {
    limits,
    remaining: xFieldName('remaining', name),
    reset: xFieldName('reset', name),
  });
  const retryAfter = Object.keys(fields).find((field) => xFieldOf(field)?.part === 'retry-after');
  return { ...read, ...(retryAfter === undefined ? {} : { namedRetryAfter: retryAfter }) };
};

const READERS: Record<RateLimitDialect, (fields: Fields, headers: Fields) => Values> = {
  draft: readDraft,
  'draft-7': readDraft7,
  triple: (fields, headers) => readOlder(fields, headers, TRIPLE_NAMES),
  'x-ratelimit': readX,
};

const readDialect = (headers: Fields, dialect: RateLimitDialect): RateLimitReading => {
  const fields = rateLimitFieldsOf(headers, dialect);
  const named = {
    dialect,
    says: RATELIMIT_DIALECTS[dialect].says,
    fieldNames: Object.keys(fields),
  };
  try {
    return { ...named, ...READERS[dialect](fields, headers) };
  } catch (error) {
    if (!(error instanceof Unreadable)) throw error;
    return { ...named, policies: [], unreadable: error.message };
  }
};

// An answer's headers are never changed once received, so its reading is kept with them: the probe's retry tests
// and four checks read the same answers again and again.
const readings = new WeakMap<Readonly<Record<string, string>>, readonly RateLimitReading[]>();

/** One reading per dialect the answer's headers (lower-case names) carry, the newest draft's first; none for none. */
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
