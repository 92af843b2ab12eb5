import { describe, expect, it } from 'vitest';
import { DEFAULT_OBSERVABILITY } from '../../src/reference/options.ts';
import { BUCKETS, ENDPOINTS, type EndpointKey, RETRY_AFTER_PATTERN } from '../../src/spec/index.ts';
import { count, useServers } from './helpers.ts';

const start = useServers();
const UPLOAD = 'POST /api/transactions/batch/generate-upload-url';
const STATUS = 'GET /api/transactions/batch/status/{batch_id}';
const TX = 'POST /event/transaction/v3';
const MINUTE = 60_000;

describe('limits (SPEC.md §8)', () => {
  it.each([...ENDPOINTS.map((e) => e.key), DEFAULT_OBSERVABILITY[0]!])(
    'admits exactly the stated count of %s within one window',
    async (key: EndpointKey) => {
      const t = await start();
      const { limit } = BUCKETS[ENDPOINTS.find((e) => e.key === key)?.bucket ?? 'observability'];
      const statuses = await t.burst(limit.count + 2, key);
      expect(count(statuses, 429)).toBe(2);
      expect(statuses.slice(0, limit.count).every((s) => s < 300 || s === 404)).toBe(true);
    },
  );

  it('answers over the limit with 429, a JSON body and integer Retry-After', async () => {
    const t = await start();
    await t.burst(20, UPLOAD);
    const answer = await t.call(UPLOAD);
    expect(answer.status).toBe(429);
    expect(answer.headers['content-type']).toBe('application/json');
    expect(answer.json.error).toEqual(expect.any(String));
    expect(answer.headers['retry-after']).toMatch(RETRY_AFTER_PATTERN);
    expect(answer.headers['retry-after']).toBe('60');
  });

  it('anchors the window at the first request and reopens it exactly at its end', async () => {
    const t = await start();
    t.clock.advance(12_345);
    expect(count(await t.burst(20, UPLOAD), 200)).toBe(20);
    t.clock.advance(MINUTE - 1);
    const last = await t.call(UPLOAD);
    expect(last.status).toBe(429);
    expect(last.headers['retry-after']).toBe('1');
    t.clock.advance(1);
    const statuses = await t.burst(21, UPLOAD);
    expect(count(statuses, 200)).toBe(20);
    expect(statuses[20]).toBe(429);
  });

  it('gives an honest Retry-After: waiting that long is enough, rounded up to whole seconds', async () => {
    const t = await start();
    await t.call(UPLOAD);
    t.clock.advance(30_500);
    await t.burst(19, UPLOAD);
    const refused = await t.call(UPLOAD);
    expect(refused.headers['retry-after']).toBe('30');
    t.clock.advance(29_499);
    expect((await t.call(UPLOAD)).headers['retry-after']).toBe('1');
    t.clock.advance(1);
    expect((await t.call(UPLOAD)).status).toBe(200);
    await t.burst(19, UPLOAD);
    const again = await t.call(UPLOAD);
    t.clock.advance(Number(again.headers['retry-after']) * 1000);
    expect((await t.call(UPLOAD)).status).toBe(200);
  });

  it('shares a limit among the clients of one tenant, not with another tenant (rule 1)', async () => {
    const t = await start();
    expect(count(await t.burst(12, UPLOAD, { role: 'primary' }), 200)).toBe(12);
    const same = await t.burst(9, UPLOAD, { role: 'same_tenant' });
    expect(count(same, 200)).toBe(8);
    expect((await t.call(UPLOAD, { role: 'restricted' })).status).toBe(429);
    expect(count(await t.burst(21, UPLOAD, { role: 'other_tenant' }), 200)).toBe(20);
  });

  it('keeps one limit per endpoint, whatever the path id', async () => {
    const t = await start();
    const ids = Array.from({ length: 120 }, (_, i) => `id-${i}`);
    const statuses = await Promise.all(ids.map((id) => t.call(STATUS, { id })));
    expect(
      count(
        statuses.map((s) => s.status),
        404,
      ),
    ).toBe(120);
    expect((await t.call(STATUS, { id: 'yet-another' })).status).toBe(429);
  });

  it('shares one limit among all Observability endpoints', async () => {
    const t = await start();
    for (const key of DEFAULT_OBSERVABILITY) expect(count(await t.burst(25, key), 200), key).toBe(25);
    for (const key of DEFAULT_OBSERVABILITY) expect((await t.call(key)).status, key).toBe(429);
  });

  it('keeps endpoints apart from each other', async () => {
    const t = await start();
    expect(count(await t.burst(21, UPLOAD), 429)).toBe(1);
    expect((await t.call('POST /api/rules/execute')).status).toBe(202);
    expect((await t.call('GET /api/transactions/batch/validation-result/{batch_id}')).status).toBe(404);
  });

  it('uses one-second windows for per-second limits and minuteMs for per-minute ones', async () => {
    const t = await start({ minuteMs: 1500, limits: { 'transaction-event': { count: 5, per: 'second' } } });
    expect(count(await t.burst(6, TX), 202)).toBe(5);
    t.clock.advance(999);
    expect((await t.call(TX)).status).toBe(429);
    t.clock.advance(1);
    expect((await t.call(TX)).status).toBe(202);

    expect(count(await t.burst(21, UPLOAD), 200)).toBe(20);
    t.clock.advance(1499);
    expect((await t.call(UPLOAD)).headers['retry-after']).toBe('1');
    t.clock.advance(1);
    expect((await t.call(UPLOAD)).status).toBe(200);
  });

  it('applies limit overrides and reports them in options', async () => {
    const t = await start({ limits: { 'transaction-event': { count: 430, per: 'second' } } });
    expect(t.server.options.limits['transaction-event']).toEqual({ count: 430, per: 'second' });
    expect(t.server.options.limits['rules-rerun']).toEqual(BUCKETS['rules-rerun'].limit);
    expect(count(await t.burst(432, TX), 202)).toBe(430);
  });
});
