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
