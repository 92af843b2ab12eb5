// The faults that make the RateLimit header fields contradict what the limiter does, as entries of faults.ts's table.
// SPEC.md asks for no such fields, so each breaks the draft they follow (draft-ietf-httpapi-ratelimit-headers-10)
// against SPEC.md §8's limit, and sends the draft's fields even when the server was asked for no dialect.
import type { FaultEntry } from './behaviour.ts';

const DRAFT = 'draft-ietf-httpapi-ratelimit-headers-10';

export const RATELIMIT_FAULTS = [
  {
    name: 'ratelimit-policy-contradicts',
    clause: '§8 table',
    rule: 'RateLimit-Policy declares ten times the stated quota (q=1200 on a 120-per-minute endpoint)',
    standard: DRAFT,
    breaks: { rateLimitFields: { dialect: 'draft', says: (said) => ({ ...said, quota: said.quota * 10 }) } },
  },
  {
    name: 'ratelimit-remaining-stuck',
    clause: '§8 table',
    rule: "RateLimit's r says the whole quota on every admitted answer: it never counts down as requests spend it (a 429 says 0)",
    standard: DRAFT,
    breaks: {
      rateLimitFields: {
        dialect: 'draft',
        says: (said) =>
          said.remaining === undefined || said.retryAfterSeconds !== undefined
            ? said
            : { ...said, remaining: said.quota },
      },
    },
  },
  {
    name: 'ratelimit-reset-early',
    clause: '§8 table',
    rule: "RateLimit's t says a quarter of the real wait (rounded down), so a client that waits it out is refused again",
    standard: DRAFT,
    breaks: {
      rateLimitFields: {
        dialect: 'draft',
        says: (said) =>
          said.resetSeconds === undefined
            ? said
            : { ...said, resetSeconds: Math.floor(said.resetSeconds / 4) },
      },
    },
  },
  {
    name: 'ratelimit-reset-after-retry',
    clause: '§8 rule 2',
    rule: "on a 429, RateLimit's t says a second more than Retry-After, which the draft says should not point earlier than t",
    standard: DRAFT,
    breaks: {
      rateLimitFields: {
        dialect: 'draft',
        says: (said) =>
          said.retryAfterSeconds === undefined ? said : { ...said, resetSeconds: said.retryAfterSeconds + 1 },
      },
    },
  },
] as const satisfies readonly FaultEntry[];
