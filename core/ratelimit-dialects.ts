// The RateLimit header fields a server may send beside SPEC.md's Retry-After, by dialect: the IETF draft's
// (draft-ietf-httpapi-ratelimit-headers -10/-11: RateLimit-Policy and RateLimit), the older triple of drafts 03 to 07
// (Kong: RateLimit-Limit, -Remaining, -Reset) and X-RateLimit-* (Envoy's draft-03 names, GitHub). SPEC.md names none.
// Pure TypeScript: k6 records the fields a load phase saw, Node reads them (src/client/ratelimit-fields.ts).

export const RATELIMIT_DIALECTS = {
  draft: { names: ['ratelimit-policy', 'ratelimit'], says: 'the IETF draft (RateLimit-Policy, RateLimit)' },
  triple: {
    names: ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset'],
    says: 'the older RateLimit-Limit/-Remaining/-Reset triple (drafts 03 to 07, Kong)',
  },
  'x-ratelimit': {
    names: ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'],
    says: 'X-RateLimit-Limit/-Remaining/-Reset (Envoy, GitHub)',
  },
} as const;
export type RateLimitDialect = keyof typeof RATELIMIT_DIALECTS;
export const DIALECT_NAMES = Object.keys(RATELIMIT_DIALECTS) as RateLimitDialect[];

/** Every header name of every dialect, lower case: what a load phase keeps of its answers. */
export const RATELIMIT_HEADER_NAMES: readonly string[] = DIALECT_NAMES.flatMap(
  (dialect) => RATELIMIT_DIALECTS[dialect].names,
);

/** The dialects whose fields appear in `headers` (lower-case names), the draft's first. */
export const dialectsIn = (headers: Readonly<Record<string, string>>): RateLimitDialect[] =>
  DIALECT_NAMES.filter((dialect) =>
    RATELIMIT_DIALECTS[dialect].names.some((name) => headers[name] !== undefined),
  );

/** Only the RateLimit fields of `headers` (of one dialect, or of all in their order). */
export const rateLimitFieldsOf = (
  headers: Readonly<Record<string, string>>,
  dialect?: RateLimitDialect,
): Record<string, string> =>
  Object.fromEntries(
    (dialect === undefined ? RATELIMIT_HEADER_NAMES : RATELIMIT_DIALECTS[dialect].names).flatMap((name) =>
      headers[name] === undefined ? [] : [[name, headers[name]]],
    ),
  );

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

/** `120` or draft-03's `120, 120;w=60` in the Limit field: the quota, and a window where one is given. */
const olderNumbers = (header: (name: string) => string | undefined, prefix: string) => {
  const limit = header(`${prefix}-limit`);
  return {
    quota: integerIn(limit),
    windowSeconds: integerIn(secondMember(limit), 'w'),
    remaining: integerIn(header(`${prefix}-remaining`)),
  };
};

/**
 * The numbers of an answer's RateLimit fields, the first dialect's (`header` takes a lower-case name). k6 cannot load
 * npm packages, so this reads only the integer parameters of a list's first member, for the load report to show;
 * conformance grades the fields with an RFC 9651 parser (src/client/ratelimit-fields.ts), and a test holds the two
 * to the same numbers on every field the reference server sends.
 */
export const fieldNumbers = (header: (name: string) => string | undefined): FieldNumbers | undefined => {
  const present = DIALECT_NAMES.filter((dialect) =>
    RATELIMIT_DIALECTS[dialect].names.some((name) => header(name) !== undefined),
  );
  const [first] = present;
  if (first === undefined) return undefined;
  const dialects = present.reduce((bits, dialect) => bits | dialectBit(dialect), 0);
  const numbers =
    first === 'draft'
      ? {
          quota: integerIn(header('ratelimit-policy'), 'q'),
          windowSeconds: integerIn(header('ratelimit-policy'), 'w'),
          remaining: integerIn(header('ratelimit'), 'r'),
        }
      : olderNumbers(header, first === 'triple' ? 'ratelimit' : 'x-ratelimit');
  return Object.fromEntries(
    Object.entries({ dialects, ...numbers }).filter(([, v]) => v !== undefined),
  ) as unknown as FieldNumbers;
};
