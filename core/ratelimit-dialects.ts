// The RateLimit header fields a server may send beside SPEC.md's Retry-After, by dialect, as the libraries people use
// send them (SPEC.md names none): the IETF draft's named lists (-08 to -11: `RateLimit-Policy: "p";q=120;w=60` and
// `RateLimit: "p";r=5;t=30`; express-rate-limit draft-8), draft -07's Dictionary (`RateLimit: limit=120, remaining=5,
// reset=30`; express-rate-limit draft-7), the triple of the drafts before it (`RateLimit-Limit`, `-Remaining`, `-Reset`;
// Kong, express-rate-limit draft-6, @fastify/rate-limit's enableDraftSpec), each of the last two with
// `RateLimit-Policy: 120;w=60` where sent, and X-RateLimit-* (Envoy, GitHub, @fastify/rate-limit, @nestjs/throttler,
// which suffixes a named throttler's fields: `X-RateLimit-Limit-<name>`, `Retry-After-<name>`). The lists and draft
// -07 share the names RateLimit and RateLimit-Policy: which dialect a field is in is read from its shape (dialectOf),
// so the reading that parses wins. Pure TypeScript: k6 records the fields a load phase saw, Node reads them
// (src/client/ratelimit-fields.ts).

/** In the order of PhaseRateLimit.dialects' bits, which load summaries keep: a new dialect goes last. */
export const RATELIMIT_DIALECTS = {
  draft: { says: "the IETF draft's named lists (-08 to -11)" },
  triple: { says: 'the RateLimit-Limit/-Remaining/-Reset triple (drafts -06 and earlier)' },
  'x-ratelimit': { says: 'X-RateLimit-* (Envoy, GitHub, @fastify/rate-limit, @nestjs/throttler)' },
  'draft-7': { says: "draft -07's RateLimit Dictionary (limit, remaining, reset)" },
} as const;
export type RateLimitDialect = keyof typeof RATELIMIT_DIALECTS;
export const DIALECT_NAMES = Object.keys(RATELIMIT_DIALECTS) as RateLimitDialect[];
/** Which reading of an answer comes first, where it carries several: the newest draft's. */
const READING_ORDER: readonly RateLimitDialect[] = ['draft', 'draft-7', 'triple', 'x-ratelimit'];

/** A throttler's name as a field name suffix: a token (RFC 9110), as long as a name is. */
const NAME = "[a-z0-9!#$%&'*+.^_`|~-]{1,64}";
/** X-RateLimit-Limit, -Remaining, -Reset, each with a name suffix where a named throttler sends it. */
const X_FIELD = new RegExp(`^x-ratelimit-(limit|remaining|reset)(?:-(${NAME}))?$`);
/** A named throttler's own Retry-After (@nestjs/throttler): not the Retry-After of SPEC.md §8 rule 2. */
const NAMED_RETRY_AFTER = new RegExp(`^retry-after-(${NAME})$`);
const TRIPLE = new Set(['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset']);
/** RateLimit-Policy led by an Integer (`120;w=60`) is the older drafts'; the lists name a policy (`"p";q=120`). */
const OLDER_POLICY = /^\s*\d/;
/** A RateLimit field of Dictionary members limit=, remaining=, reset= is draft -07's; a list's items take `;`. */
const DICTIONARY = /(?:^|,)\s*(?:limit|remaining|reset)\s*=/;

/** What an X-RateLimit-* or named Retry-After field is: its part and its throttler's name, if it has one. */
export interface XField {
  readonly part: 'limit' | 'remaining' | 'reset' | 'retry-after';
  readonly name?: string;
}

export const xFieldOf = (field: string): XField | undefined => {
  const x = X_FIELD.exec(field);
  if (x !== null) return { part: x[1] as XField['part'], ...(x[2] === undefined ? {} : { name: x[2] }) };
  const named = NAMED_RETRY_AFTER.exec(field);
  return named === null ? undefined : { part: 'retry-after', name: named[1]! };
};

/** The dialect of one field of `headers` (lower-case names), by its name and, for the shared names, its shape. */
const dialectOf = (
  field: string,
  headers: Readonly<Record<string, string>>,
): RateLimitDialect | undefined => {
  if (TRIPLE.has(field)) return 'triple';
  if (xFieldOf(field) !== undefined) return 'x-ratelimit';
  const value = headers[field]?.slice(0, MAX_RATELIMIT_FIELD_BYTES) ?? '';
  if (field === 'ratelimit') return DICTIONARY.test(value) ? 'draft-7' : 'draft';
  if (field !== 'ratelimit-policy') return undefined;
  if (!OLDER_POLICY.test(value)) return 'draft';
  // The older policy goes with the fields it came with: the Dictionary's (draft -07), else the triple's.
  return headers.ratelimit !== undefined &&
    DICTIONARY.test(headers.ratelimit.slice(0, MAX_RATELIMIT_FIELD_BYTES))
    ? 'draft-7'
    : 'triple';
};

/** Only the RateLimit fields of `headers` (lower-case names), of one dialect or of all, in the answer's order. */
export const rateLimitFieldsOf = (
  headers: Readonly<Record<string, string>>,
  dialect?: RateLimitDialect,
): Record<string, string> =>
  Object.fromEntries(
    Object.entries(headers).filter(([field]) => {
      const of = dialectOf(field, headers);
      return of !== undefined && (dialect === undefined || of === dialect);
    }),
  );

/** The dialects whose fields appear in `headers` (lower-case names), the newest draft's first. */
export const dialectsIn = (headers: Readonly<Record<string, string>>): RateLimitDialect[] => {
  const found = new Set(Object.keys(headers).map((field) => dialectOf(field, headers)));
  return READING_ORDER.filter((dialect) => found.has(dialect));
};

/** Bits of PhaseRateLimit.dialects, in the dialects' order. */
export const dialectBit = (dialect: RateLimitDialect): number => 2 ** DIALECT_NAMES.indexOf(dialect);
export const dialectsOfBits = (bits: number): RateLimitDialect[] =>
  DIALECT_NAMES.filter((dialect) => (bits & dialectBit(dialect)) !== 0);

/** What a load phase keeps of one answer's fields: the numbers k6's metrics can carry. */
export interface FieldNumbers {
  readonly dialects: number;
  readonly quota?: number;
  readonly windowSeconds?: number;
  readonly remaining?: number;
}

/**
 * The most of one RateLimit field harness reads, and the most list members (policies, or RateLimit items) it takes
 * of it. Real fields hold a few policies in under 200 bytes; one of 1,000 policies (15 KB) on every answer made load
 * runs 2-4 times slower and took 0.75-2 GB where 0.19 GB did.
 */
export const MAX_RATELIMIT_FIELD_BYTES = 1024;
export const MAX_RATELIMIT_MEMBERS = 16;

/** How a field too large to read is named in what a reading leaves out. */
export const fieldTooLarge = (field: string, bytes: number): string =>
  `${field} is ${bytes} bytes, over the ${MAX_RATELIMIT_FIELD_BYTES} harness reads`;

/** The whole members of a list field within the bounds, and what was left unread. */
export interface BoundedList {
  /** The leading whole members, without the comma after them; the field itself when it is within the bounds. */
  readonly value: string;
  readonly members: number;
  /** Why part of the field was not read, naming `field`; absent when all of it was. */
  readonly notRead?: string;
}

/**
 * The leading members of a list field that end within MAX_RATELIMIT_FIELD_BYTES, at most MAX_RATELIMIT_MEMBERS of
 * them: a member is cut off at a comma outside a quoted string, never in its middle, so a number is never read
 * short. The scan stops at the bound, whatever the field's length.
 */
export const boundedList = (value: string, field: string, members = MAX_RATELIMIT_MEMBERS): BoundedList => {
  const scanned = Math.min(value.length, MAX_RATELIMIT_FIELD_BYTES + 1);
  let quoted = false;
  let count = 0;
  let end = 0;
  for (let i = 0; i < scanned && count < members; i++) {
    const c = value[i];
    if (c === '\\' && quoted) i++;
    else if (c === '"') quoted = !quoted;
    else if (c === ',' && !quoted) {
      count++;
      end = i;
    }
  }
  const whole = value.length <= MAX_RATELIMIT_FIELD_BYTES && count < members;
  if (whole) return { value, members: count + 1 };
  const size =
    value.length > MAX_RATELIMIT_FIELD_BYTES
      ? fieldTooLarge(field, value.length)
      : `${field} lists more than ${members} members, the most harness reads`;
  const read =
    count === 0 ? 'none of it was read' : `only its first ${count} members were read, the rest not`;
  return { value: value.slice(0, end), members: count, notRead: `${size}: ${read}` };
};

/** The first member of a list field, if it ends within the bound. */
const firstMember = (value: string): string | undefined => {
  const first = boundedList(value, '', 1);
  return first.members === 1 ? first.value : undefined;
};

/** An integer parameter (`;q=120`) of the first member, or its leading integer for `key` undefined (`120, ...`). */
/** Compiled once: k6 reads every answer of a phase at hundreds a second. */
const PARAMETER = {
  q: /;\s*q=(\d{1,15})\s*(?:;|$)/,
  w: /;\s*w=(\d{1,15})\s*(?:;|$)/,
  r: /;\s*r=(\d{1,15})\s*(?:;|$)/,
} as const;
const LEADING = /^\s*(\d{1,15})\s*(?:;|$)/;

const integerIn = (value: string | undefined, key?: keyof typeof PARAMETER): number | undefined => {
  const member = value === undefined ? undefined : firstMember(value);
  if (member === undefined) return undefined;
  const match = (key === undefined ? LEADING : PARAMETER[key]).exec(member);
  return match === null ? undefined : Number(match[1]);
};

/** What follows the first member, from the second on, within the bound. */
const secondMember = (value: string | undefined): string | undefined => {
  if (value === undefined) return undefined;
  const first = boundedList(value, '', 1);
  return first.members === 1 && first.value.length < value.length
    ? value.slice(first.value.length + 1)
    : undefined;
};

/** The first X-RateLimit-Limit's throttler name (undefined: the unnamed one), as both readings take it. */
export const firstThrottler = (headers: Readonly<Record<string, string>>): { name?: string } => {
  for (const field of Object.keys(headers)) {
    const x = xFieldOf(field);
    if (x?.part === 'limit') return x.name === undefined ? {} : { name: x.name };
  }
  return {};
};

/** An X-RateLimit-* field's name for `part`, with the throttler's suffix. */
export const xFieldName = (part: 'limit' | 'remaining' | 'reset', name?: string): string =>
  `x-ratelimit-${part}${name === undefined ? '' : `-${name}`}`;

/** A Dictionary member `key=N` of draft -07 (compiled once, as PARAMETER). */
const DICTIONARY_MEMBER = {
  limit: /(?:^|,)\s*limit=(\d{1,15})\s*(?:[,;]|$)/,
  remaining: /(?:^|,)\s*remaining=(\d{1,15})\s*(?:[,;]|$)/,
} as const;

/** The integer of a Dictionary member (draft -07), within the bound. */
const dictionaryInteger = (
  value: string | undefined,
  key: keyof typeof DICTIONARY_MEMBER,
): number | undefined => {
  const match = value === undefined ? null : DICTIONARY_MEMBER[key].exec(boundedList(value, '').value);
  return match === null ? undefined : Number(match[1]);
};

/** `120` or draft-03's `120, 120;w=60` in a Limit field, or the older `120;w=60` RateLimit-Policy. */
const olderNumbers = (
  headers: Readonly<Record<string, string>>,
  limitField: string,
  remainingField: string,
) => {
  const limit = headers[limitField];
  const policy =
    dialectOf('ratelimit-policy', headers) === 'triple' ? headers['ratelimit-policy'] : undefined;
  return {
    quota: integerIn(limit) ?? integerIn(policy),
    windowSeconds: integerIn(secondMember(limit), 'w') ?? integerIn(policy, 'w'),
    remaining: integerIn(headers[remainingField]),
  };
};

const NUMBERS: Record<
  RateLimitDialect,
  (headers: Readonly<Record<string, string>>) => Omit<FieldNumbers, 'dialects'>
> = {
  draft: (headers) => ({
    quota: integerIn(headers['ratelimit-policy'], 'q'),
    windowSeconds: integerIn(headers['ratelimit-policy'], 'w'),
    remaining: integerIn(headers.ratelimit, 'r'),
  }),
  'draft-7': (headers) => {
    const policy =
      dialectOf('ratelimit-policy', headers) === 'draft-7' ? headers['ratelimit-policy'] : undefined;
    return {
      quota: integerIn(policy) ?? dictionaryInteger(headers.ratelimit, 'limit'),
      windowSeconds: integerIn(policy, 'w'),
      remaining: dictionaryInteger(headers.ratelimit, 'remaining'),
    };
  },
  triple: (headers) => olderNumbers(headers, 'ratelimit-limit', 'ratelimit-remaining'),
  'x-ratelimit': (headers) => {
    const { name } = firstThrottler(headers);
    return olderNumbers(headers, xFieldName('limit', name), xFieldName('remaining', name));
  },
};

/**
 * The numbers of an answer's RateLimit fields (lower-case names), the first dialect's. k6 cannot load npm packages,
 * so this reads only the integers of a list's first member, for the load report to show; conformance grades the
 * fields with an RFC 9651 parser (src/client/ratelimit-fields.ts), and a test holds the two to the same numbers on
 * every field the reference server sends.
 */
export const fieldNumbers = (headers: Readonly<Record<string, string>>): FieldNumbers | undefined => {
  const present = dialectsIn(headers);
  const [first] = present;
  if (first === undefined) return undefined;
  const dialects = present.reduce((bits, dialect) => bits | dialectBit(dialect), 0);
  return Object.fromEntries(
    Object.entries({ dialects, ...NUMBERS[first](headers) }).filter(([, v]) => v !== undefined),
  ) as unknown as FieldNumbers;
};
