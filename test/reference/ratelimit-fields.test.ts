// The RateLimit header fields the reference server sends on request: in every dialect and under every limiter kind
// they say what the limiter does (the checks of conformance/ratelimit-fields.ts are graded against this server).
import { describe, expect, it } from 'vitest';
import { DIALECT_NAMES } from '../../core/ratelimit-dialects.ts';
import { readRateLimitFields } from '../../src/client/ratelimit-fields.ts';
import { LIMITER_KINDS } from '../../src/reference/index.ts';
import { type Reply, useServers } from './helpers.ts';

const start = useServers();
const SCHEDULE = 'GET /api/rules/schedule';
const LIMIT = 4;

const read = (reply: Reply) =>
  readRateLimitFields(
    Object.fromEntries(Object.entries(reply.headers).map(([name, value]) => [name, String(value)])),
  );

describe.each(LIMITER_KINDS)('RateLimit fields under the %s limiter', (limiter) => {
  it.each(DIALECT_NAMES)(
    'in the %s dialect, count down to 0 and reset when Retry-After says',
    async (dialect) => {
      const t = await start({
        limiter,
        rateLimitFields: dialect,
        limits: { 'rules-schedule': { count: LIMIT, per: 'minute' } },
      });
      const replies: Reply[] = [];
      for (let i = 0; i <= LIMIT; i++) replies.push(await t.call(SCHEDULE));
      const readings = replies.map((reply) => {
        const [reading, ...others] = read(reply);
        expect(others).toEqual([]);
        expect(reading?.dialect).toBe(dialect);
        return reading!;
      });
      expect(readings.map((r) => r.remaining)).toEqual([3, 2, 1, 0, 0]);
      for (const reading of readings) {
        expect(reading.policies).toEqual([
          {
            ...(dialect === 'draft' ? { name: 'rules-schedule' } : {}),
            quota: LIMIT,
            ...(dialect === 'triple' ? {} : { windowSeconds: 60 }),
          },
        ]);
      }
      const refusal = replies.at(-1)!;
      expect(refusal.status).toBe(429);
      expect(readings.at(-1)!.resetSeconds).toBe(Number(refusal.headers['retry-after']));
      t.clock.advance(readings.at(-1)!.resetSeconds! * 1000);
      expect((await t.call(SCHEDULE)).status).toBe(200);
    },
  );
});

describe('RateLimit fields', () => {
  it('are not sent unless asked for: SPEC.md asks for none', async () => {
    const t = await start();
    expect(read(await t.call(SCHEDULE))).toEqual([]);
  });

  it('are not sent on answers the limiter never saw (401)', async () => {
    const t = await start({ rateLimitFields: 'draft' });
    const refused = await t.call(SCHEDULE, { token: 'not-issued' });
    expect(refused.status).toBe(401);
    expect(read(refused)).toEqual([]);
  });
});
