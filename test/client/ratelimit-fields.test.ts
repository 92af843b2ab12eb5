import { describe, expect, it } from 'vitest';
import { readRateLimitFields } from '../../src/client/ratelimit-fields.ts';

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
    expect(readings[1]?.fields).toEqual({ 'x-ratelimit-remaining': '1' });
    expect(readRateLimitFields({ 'retry-after': '3', 'content-type': 'application/json' })).toEqual([]);
  });
});
