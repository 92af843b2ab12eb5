import { describe, expect, it } from 'vitest';
import type { PhasePlan } from '../../core/plan.ts';
import { DIALECT_NAMES, fieldNumbers } from '../../core/ratelimit-dialects.ts';
import { rateLimitNote } from '../../core/ratelimit-note.ts';
import { readRateLimitFields } from '../../src/client/ratelimit-fields.ts';
import { rateLimitHeaders } from '../../src/reference/ratelimit-fields.ts';

const numbersOf = (headers: Record<string, string>) => fieldNumbers(headers);

describe("fieldNumbers (k6's reading, for the load report)", () => {
  it.each(DIALECT_NAMES)(
    'reads what the RFC 9651 reading reads of every %s field the reference server sends',
    (dialect) => {
      for (const said of [
        { quota: 120, windowSeconds: 60, remaining: 119, resetSeconds: 60 },
        { quota: 500, windowSeconds: 1, remaining: 0, resetSeconds: 1 },
        { quota: 1, windowSeconds: 60 },
      ]) {
        const headers = rateLimitHeaders(dialect, 'rules-schedule', said);
        const [reading] = readRateLimitFields(headers);
        expect(numbersOf(headers)).toEqual({
          dialects: 2 ** DIALECT_NAMES.indexOf(dialect),
          quota: reading!.policies[0]!.quota,
          ...(reading!.policies[0]!.windowSeconds === undefined
            ? {}
            : { windowSeconds: reading!.policies[0]!.windowSeconds }),
          ...(reading!.remaining === undefined ? {} : { remaining: reading!.remaining }),
        });
      }
    },
  );

  it('reads the first member only, past a comma inside a quoted name', () => {
    expect(
      numbersOf({ 'ratelimit-policy': '"a,b";q=10;w=1, "day";q=1000;w=86400', ratelimit: '"a,b";r=3;t=1' }),
    ).toEqual({ dialects: 1, quota: 10, windowSeconds: 1, remaining: 3 });
  });

  it('reads the first policy of a 1,000-policy field, and nothing of a first member past the byte bound', () => {
    const policies = Array.from({ length: 1000 }, (_, i) => `"p${i}";q=${100 + i};w=60`).join(', ');
    expect(numbersOf({ 'ratelimit-policy': policies, ratelimit: '"p0";r=50;t=30' })).toEqual({
      dialects: 1,
      quota: 100,
      windowSeconds: 60,
      remaining: 50,
    });
    // A number cut at the bound would read short (q=12 of q=1234): the member is left unread instead.
    expect(numbersOf({ 'ratelimit-policy': `"${'a'.repeat(1100)}";q=1234` })).toEqual({ dialects: 1 });
    expect(numbersOf({ 'x-ratelimit-limit': `1${'0'.repeat(2000)}` })).toEqual({ dialects: 4 });
  });

  // As the libraries send them (FACTS.md): express-rate-limit's draft-6 and draft-7, a named @nestjs/throttler.
  it.each([
    [
      'draft-6: the triple and an Integer RateLimit-Policy',
      {
        'ratelimit-policy': '120;w=60',
        'ratelimit-limit': '120',
        'ratelimit-remaining': '7',
        'ratelimit-reset': '9',
      },
      { dialects: 2, quota: 120, windowSeconds: 60, remaining: 7 },
    ],
    [
      'draft-7: a Dictionary and an Integer RateLimit-Policy',
      { 'ratelimit-policy': '120;w=60', ratelimit: 'limit=120, remaining=7, reset=9' },
      { dialects: 8, quota: 120, windowSeconds: 60, remaining: 7 },
    ],
    [
      'draft-8: the lists, with spaces and a partition key',
      { 'ratelimit-policy': '"per-min"; q=120; w=60; pk=:MTIz:', ratelimit: '"per-min"; r=7; t=9' },
      { dialects: 1, quota: 120, windowSeconds: 60, remaining: 7 },
    ],
    [
      "a named throttler's suffixed X-RateLimit-*",
      {
        'x-ratelimit-limit-short': '120',
        'x-ratelimit-remaining-short': '7',
        'x-ratelimit-reset-short': '9',
      },
      { dialects: 4, quota: 120, remaining: 7 },
    ],
  ])('reads %s as the RFC 9651 reading does', (_, headers, numbers) => {
    expect(numbersOf(headers)).toEqual(numbers);
    const [reading] = readRateLimitFields(headers);
    expect(reading!.policies[0]!.quota).toBe(numbers.quota);
    expect(reading!.remaining).toBe(numbers.remaining);
  });

  it('notes every dialect seen, and nothing for an answer without fields', () => {
    expect(numbersOf({ 'ratelimit-limit': '5', 'x-ratelimit-limit': '5' })?.dialects).toBe(2 | 4);
    expect(numbersOf({ 'retry-after': '1' })).toBeUndefined();
  });
});

describe('rateLimitNote', () => {
  // The note reads only the limit of the plan.
  const plan = { limit: { count: 120, per: 'minute', windowMs: 60_000 } } as PhasePlan;

  it('says the declared policy agrees with SPEC.md where it does', () => {
    expect(
      rateLimitNote(plan, {
        dialects: 1,
        quota: { min: 120, max: 120 },
        windowSeconds: { min: 60, max: 60 },
      }),
    ).toBe(
      "RateLimit fields (the IETF draft's named lists (-08 to -11)): declared 120 per 60 s, as SPEC.md states",
    );
  });

  it('says no quota was read, not that none was declared, where the fields read state none', () => {
    expect(rateLimitNote(plan, { dialects: 4 | 8, remainingOnLimitedMax: 0 })).toBe(
      "RateLimit fields (X-RateLimit-* (Envoy, GitHub, @fastify/rate-limit, @nestjs/throttler), and draft -07's RateLimit Dictionary (limit, remaining, reset)): no quota read from them",
    );
  });

  it('names a policy that contradicts SPEC.md, and a 429 that said room remained', () => {
    expect(
      rateLimitNote(plan, { dialects: 2, quota: { min: 1200, max: 1200 }, remainingOnLimitedMax: 5 }),
    ).toBe(
      "RateLimit fields (the RateLimit-Limit/-Remaining/-Reset triple (drafts -06 and earlier)): declared 1200 per an undeclared window, not SPEC.md's 120 per 60 s; a 429 said 5 remained",
    );
  });
});
