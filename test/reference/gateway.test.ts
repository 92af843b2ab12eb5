// Gateway mode (limitBeforeAuth): the limit is counted before the token and permission checks, as an API gateway
// in front of a service counts. See the comment at the top of src/reference/app.ts.
import { describe, expect, it } from 'vitest';
import { LIMITER_KINDS } from '../../src/reference/index.ts';
import { count, useServers } from './helpers.ts';

const start = useServers();
const RERUN = 'POST /api/rules/rerun';
const UPLOAD = 'POST /api/transactions/batch/generate-upload-url';

describe('without gateway mode (the default)', () => {
  it('a 403 spends nothing of the tenant limit', async () => {
    const t = await start();
    expect((await t.call(RERUN, { role: 'restricted' })).status).toBe(403);
    expect((await t.call(RERUN)).status).toBe(202);
  });

  it('401s spend nothing either', async () => {
    const t = await start({ limits: { 'batch-upload-url': { count: 2, per: 'minute' } } });
    expect(count(await t.burst(5, UPLOAD, { token: null }), 401)).toBe(5);
    expect(count(await t.burst(3, UPLOAD), 200)).toBe(2);
  });
});

describe.each(LIMITER_KINDS)('gateway mode, %s limiter', (limiter) => {
  it('a 403 spends the tenant limit, and over the limit a would-be 403 gets 429', async () => {
    const t = await start({ limiter, limitBeforeAuth: true });
    expect((await t.call(RERUN, { role: 'restricted' })).status).toBe(403);
    const refused = await t.call(RERUN);
    expect([refused.status, refused.headers['retry-after']]).toEqual([429, '60']);
    expect((await t.call(RERUN, { role: 'restricted' })).status).toBe(429);
    expect((await t.call(RERUN, { role: 'other_tenant' })).status).toBe(202);
  });

  it('an expired token the server issued counts toward its tenant', async () => {
    const t = await start({ limiter, limitBeforeAuth: true, tokenLifetimeSeconds: 1 });
    const expired = await t.newToken();
    t.clock.advance(1000);
    expect((await t.call(RERUN, { token: expired })).status).toBe(401);
    expect((await t.call(RERUN, { token: expired })).status).toBe(429);
    expect((await t.call(RERUN, { role: 'same_tenant' })).status).toBe(429);
  });

  it('no token or an unknown one counts toward an anonymous key per route, not a tenant', async () => {
    const t = await start({ limiter, limitBeforeAuth: true });
    expect((await t.call(RERUN, { token: null })).status).toBe(401);
    expect((await t.call(RERUN, { token: 'never-issued' })).status).toBe(429);
    expect((await t.call(RERUN)).status).toBe(202);
    expect((await t.call('POST /api/rules/execute', { token: null })).status).toBe(401);
  });
});
