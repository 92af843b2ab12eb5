import { describe, expect, it } from 'vitest';
import { MAX_RATELIMIT_FIELD_BYTES, MAX_RATELIMIT_MEMBERS } from '../../core/ratelimit-dialects.ts';
import { readRateLimitFields } from '../../src/client/ratelimit-fields.ts';

/** 1,000 policies, about 15 KB, in one field: what made load runs 2-4 times slower. */
const THOUSAND_POLICIES = Array.from({ length: 1000 }, (_, i) => `"p${i}";q=${100 + i};w=60`).join(', ');

describe('readRateLimitFields', () => {
  it('reads the draft: every quota policy, and the RateLimit item of the first one named', () => {
    const [reading, ...others] = readRateLimitFields({
      'ratelimit-policy': '"burst";q=100;w=60, "daily";q=1000;w=86400;qu="requests"',
      ratelimit: '"daily";r=900;t=3000, "burst";r=50;t=30',
    });
    expect(others).toEqual([]);
    expect(reading).toMatchObject({
      dialect: 'draft',
      policies: [
        { name: 'burst', quota: 100, windowSeconds: 60 },
        { name: 'daily', quota: 1000, windowSeconds: 86400 },
      ],
      remaining: 50,
      resetSeconds: 30,
    });
  });

  it('takes a policy named by a Token as by a String', () => {
    const [reading] = readRateLimitFields({ 'ratelimit-policy': 'burst;q=5', ratelimit: 'burst;r=4' });
    expect(reading).toMatchObject({ policies: [{ name: 'burst', quota: 5 }], remaining: 4 });
    expect(reading?.resetSeconds).toBeUndefined();
  });

  it('says why a draft field is no Structured Field list, and reads nothing of it', () => {
    const [reading] = readRateLimitFields({ ratelimit: 'r=5; t=' });
    expect(reading?.policies).toEqual([]);
    expect(reading?.remaining).toBeUndefined();
    expect(reading?.unreadable).toMatch(/^RateLimit is no Structured Field list/);
  });

  it('reads the older triple, and draft-03 quota policies in its Limit field', () => {
    expect(
      readRateLimitFields({
        'ratelimit-limit': '120',
        'ratelimit-remaining': '7',
        'ratelimit-reset': '12',
      })[0],
    ).toMatchObject({ dialect: 'triple', policies: [{ quota: 120 }], remaining: 7, resetSeconds: 12 });
    expect(readRateLimitFields({ 'x-ratelimit-limit': '120, 120;w=60' })[0]?.policies).toEqual([
      { quota: 120, windowSeconds: 60 },
    ]);
  });

  it("reads express-rate-limit's draft-6 as the triple, its Integer RateLimit-Policy as the policy's window", () => {
    const readings = readRateLimitFields({
      'ratelimit-policy': '120;w=60',
      'ratelimit-limit': '120',
      'ratelimit-remaining': '7',
      'ratelimit-reset': '12',
    });
    expect(readings.map((r) => r.dialect)).toEqual(['triple']);
    expect(readings[0]).toMatchObject({
      policies: [{ quota: 120, windowSeconds: 60 }],
      remaining: 7,
      resetSeconds: 12,
    });
    expect(readings[0]!.fieldNames).toEqual([
      'ratelimit-policy',
      'ratelimit-limit',
      'ratelimit-remaining',
      'ratelimit-reset',
    ]);
    expect(readings[0]!.unreadable).toBeUndefined();
  });

  it("reads draft -07's Dictionary with its policy, and states a limit that contradicts the policy as its own", () => {
    const [reading, ...others] = readRateLimitFields({
      'ratelimit-policy': '120;w=60',
      ratelimit: 'limit=1000, remaining=879, reset=30',
    });
    expect(others).toEqual([]);
    expect(reading).toMatchObject({
      dialect: 'draft-7',
      policies: [{ quota: 120, windowSeconds: 60 }, { quota: 1000 }],
      remaining: 879,
      resetSeconds: 30,
    });
    const [broken] = readRateLimitFields({ ratelimit: 'limit=120, remaining=(' });
    expect(broken).toMatchObject({ dialect: 'draft-7', policies: [] });
    expect(broken?.unreadable).toMatch(/^RateLimit is no Structured Field Dictionary/);
  });

  it("reads a named throttler's X-RateLimit-*-<name>, and its Retry-After-<name> as what it is", () => {
    const [admitted] = readRateLimitFields({
      'x-ratelimit-limit-short': '120',
      'x-ratelimit-remaining-short': '7',
      'x-ratelimit-reset-short': '2',
      'x-ratelimit-limit-long': '1000',
    });
    expect(admitted).toMatchObject({
      dialect: 'x-ratelimit',
      policies: [
        { name: 'short', quota: 120 },
        { name: 'long', quota: 1000 },
      ],
      remaining: 7,
      resetSeconds: 2,
    });
    const [refused] = readRateLimitFields({ 'retry-after-short': '2', 'retry-after': '3' });
    expect(refused).toMatchObject({
      dialect: 'x-ratelimit',
      policies: [],
      fieldNames: ['retry-after-short'],
      namedRetryAfter: 'retry-after-short',
    });
    expect(refused?.resetSeconds).toBeUndefined();
  });

  it("reads an X-RateLimit-Reset Unix time against the answer's own Date, never the local clock", () => {
    const date = 'Fri, 27 Nov 2026 08:00:00 GMT';
    const epoch = Date.parse(date) / 1000 + 42;
    expect(readRateLimitFields({ 'x-ratelimit-reset': String(epoch), date })[0]?.resetSeconds).toBe(42);
    const [undated] = readRateLimitFields({ 'x-ratelimit-reset': String(epoch) });
    expect(undated?.resetSeconds).toBeUndefined();
    expect(undated?.unreadable).toMatch(/no Date header/);
  });

  it('gives one reading per dialect sent, the draft first, and none for an answer without any', () => {
    const readings = readRateLimitFields({ 'x-ratelimit-remaining': '1', 'ratelimit-policy': '"a";q=2' });
    expect(readings.map((r) => r.dialect)).toEqual(['draft', 'x-ratelimit']);
    expect(readings[1]?.fieldNames).toEqual(['x-ratelimit-remaining']);
    expect(readRateLimitFields({ 'retry-after': '3', 'content-type': 'application/json' })).toEqual([]);
  });

  it('reads a 1,000-policy field only within its bounds, and says the rest was not read', () => {
    expect(THOUSAND_POLICIES.length).toBeGreaterThan(14_000);
    const [reading] = readRateLimitFields({
      'ratelimit-policy': THOUSAND_POLICIES,
      ratelimit: '"p0";r=50;t=30',
    });
    expect(reading?.policies).toHaveLength(MAX_RATELIMIT_MEMBERS);
    expect(reading?.policies[0]).toEqual({ name: 'p0', quota: 100, windowSeconds: 60 });
    expect(reading?.policies.at(-1)).toEqual({ name: 'p15', quota: 115, windowSeconds: 60 });
    expect(reading).toMatchObject({ remaining: 50, resetSeconds: 30 });
    expect(reading?.unreadable).toBe(
      `RateLimit-Policy is ${THOUSAND_POLICIES.length} bytes, over the ${MAX_RATELIMIT_FIELD_BYTES} harness reads: only its first 16 members were read, the rest not`,
    );
  });

  it('reads no more members than the bound of a short field, and none of a member longer than the byte bound', () => {
    const seventeen = Array.from({ length: 17 }, (_, i) => `p${i};q=1`).join(',');
    const [many] = readRateLimitFields({ 'ratelimit-policy': seventeen });
    expect(many?.policies).toHaveLength(16);
    expect(many?.unreadable).toBe(
      'RateLimit-Policy lists more than 16 members, the most harness reads: only its first 16 members were read, the rest not',
    );
    const long = `"${'a'.repeat(2000)}";q=5, "b";q=6`;
    const [cut] = readRateLimitFields({ 'ratelimit-policy': long });
    expect(cut?.policies).toEqual([]);
    expect(cut?.unreadable).toBe(
      `RateLimit-Policy is ${long.length} bytes, over the 1024 harness reads: none of it was read`,
    );
  });

  it('reads no older field past the byte bound, and says so', () => {
    const [reading] = readRateLimitFields({
      'x-ratelimit-limit': '120',
      'x-ratelimit-remaining': '7'.repeat(2000),
    });
    expect(reading?.policies).toEqual([{ quota: 120 }]);
    expect(reading?.remaining).toBeUndefined();
    expect(reading?.unreadable).toBe(
      'x-ratelimit-remaining is 2000 bytes, over the 1024 harness reads: none of it was read',
    );
  });

  it('reads each answer once, however many checks ask', () => {
    const headers = { 'ratelimit-policy': THOUSAND_POLICIES };
    const first = readRateLimitFields(headers);
    expect(readRateLimitFields(headers)).toBe(first);
    expect(readRateLimitFields({ ...headers })).not.toBe(first);
  });
});
