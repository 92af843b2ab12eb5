import { Readable } from 'node:stream';
import { Ajv } from 'ajv';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { MAX_BODY_BYTES } from '../../src/reference/http.ts';
import { startReferenceServer } from '../../src/reference/index.ts';
import { isLoopback } from '../../src/reference/options.ts';
import { ENDPOINTS, profileSchema } from '../../src/spec/index.ts';
import { useServers } from './helpers.ts';

const start = useServers();
const UPLOAD = 'POST /api/transactions/batch/generate-upload-url';
const EXECUTE = 'POST /api/rules/execute';

describe('routing', () => {
  it('answers an unknown path with 404 and a known path with another method with 405 and Allow', async () => {
    const t = await start();
    for (const path of [
      '/',
      '/nope',
      '/event/transaction/v3/',
      '/event/transaction/v2',
      '/api/rules/status/',
    ]) {
      expect((await t.raw(path)).status, path).toBe(404);
    }
    for (const { key, method } of ENDPOINTS) {
      const answer = await t.call(key, { method: method === 'GET' ? 'POST' : 'GET' });
      expect(answer.status, key).toBe(405);
      expect(answer.headers.allow, key).toBe(method);
    }
  });

  it('ignores the query string', async () => {
    const t = await start();
    const token = await t.newToken();
    const answer = await t.raw('/api/rules/schedule?date=2026-01-01', {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(answer.status).toBe(200);
  });

  it('keeps connections alive', async () => {
    const t = await start();
    expect((await t.call('GET /api/rules/schedule')).headers.connection).toBe('keep-alive');
  });

  it('answers bodies over 1 MiB with 413, declared or chunked', async () => {
    const t = await start();
    const big = 'x'.repeat(MAX_BODY_BYTES + 1);
    const token = await t.newToken();
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const declared = await t.raw('/event/transaction/v3', { method: 'POST', headers, body: big });
    expect(declared.status).toBe(413);
    const chunked = await request(`${t.server.baseUrl}/event/transaction/v3`, {
      method: 'POST',
      headers,
      body: Readable.from(
        (function* () {
          for (let i = 0; i < 20; i++) yield Buffer.alloc(64 * 1024, 120);
        })(),
      ),
    });
    expect(chunked.statusCode).toBe(413);
    await chunked.body.dump();
    expect((await t.call('POST /event/transaction/v3', { token })).status).toBe(202);
    expect((await t.call('POST /event/transaction/v3', { body: 'x'.repeat(MAX_BODY_BYTES) })).status).toBe(
      202,
    );
  });
});

describe('endpoint answers', () => {
  it('answers each §4 endpoint with JSON', async () => {
    const t = await start();
    const tx = await t.call('POST /event/transaction/v3');
    expect([tx.status, tx.json]).toEqual([202, { status: 'accepted' }]);
    const rerun = await t.call('POST /api/rules/rerun');
    expect([rerun.status, rerun.json]).toEqual([202, { rerun_id: expect.any(String) }]);
    const schedule = await t.call('GET /api/rules/schedule');
    expect([schedule.status, Array.isArray(schedule.json.rules)]).toEqual([200, true]);
    for (const key of t.server.options.observability) {
      const answer = await t.call(key);
      expect([answer.status, answer.headers['content-type']]).toEqual([200, 'application/json']);
    }
  });

  it('remembers issued batch ids and execution ids; unknown ids get 404 after auth', async () => {
    const t = await start();
    const upload = await t.call(UPLOAD);
    expect(upload.status).toBe(200);
    const batchId: string = upload.json.batch_id;
    expect(upload.json.url).toBe(`${t.server.baseUrl}/upload/${batchId}`);
    for (const key of [
      'GET /api/transactions/batch/status/{batch_id}',
      'GET /api/transactions/batch/validation-result/{batch_id}',
    ] as const) {
      const known = await t.call(key, { id: batchId });
      expect([known.status, known.json.batch_id]).toEqual([200, batchId]);
      expect((await t.call(key, { id: 'unknown' })).status).toBe(404);
      expect((await t.call(key, { id: 'unknown', token: null })).status).toBe(401);
    }
    const execute = await t.call(EXECUTE);
    expect(execute.status).toBe(202);
    const status = await t.call('GET /api/rules/status/{execution_id}', { id: execute.json.execution_id });
    expect([status.status, status.json.execution_id]).toEqual([200, execute.json.execution_id]);
    expect((await t.call('GET /api/rules/status/{execution_id}', { id: batchId })).status).toBe(404);
  });

  it('lets any tenant read an issued id', async () => {
    const t = await start();
    const { batch_id } = (await t.call(UPLOAD)).json;
    const answer = await t.call('GET /api/transactions/batch/status/{batch_id}', {
      id: batch_id,
      role: 'other_tenant',
    });
    expect(answer.status).toBe(200);
  });

  it('serves the Observability paths it is given, all in one bucket', async () => {
    const t = await start({ observability: ['GET /obs/one', 'POST /obs/two'] });
    expect((await t.call('GET /obs/one')).status).toBe(200);
    expect((await t.call('POST /obs/two')).status).toBe(200);
    expect((await t.call('GET /api/observability/transaction-summary')).status).toBe(404);
  });
});

describe('options', () => {
  it('refuses hosts that are not loopback', async () => {
    for (const host of ['0.0.0.0', '192.168.1.10', 'example.com', '::', '128.0.0.1']) {
      await expect(startReferenceServer({ host })).rejects.toThrow(/loopback/);
    }
    for (const host of ['127.0.0.1', '127.1.2.3', '::1', 'localhost']) expect(isLoopback(host)).toBe(true);
  });

  it('listens on another loopback address', async () => {
    const t = await start({ host: '127.0.0.2' });
    expect(t.server.baseUrl).toMatch(/^http:\/\/127\.0\.0\.2:\d+$/);
    expect((await t.call('GET /api/rules/schedule')).status).toBe(200);
  });

  it('rejects unknown faults, bad numbers and client lists without the four roles', async () => {
    await expect(startReferenceServer({ fault: 'nope' as never })).rejects.toThrow(/fault/);
    await expect(startReferenceServer({ minuteMs: 0 })).rejects.toThrow(/minuteMs/);
    await expect(startReferenceServer({ tokenLifetimeSeconds: 1.5 })).rejects.toThrow(/tokenLifetime/);
    await expect(startReferenceServer({ tenant: 'a b' })).rejects.toThrow(/scope/);
    await expect(
      startReferenceServer({ limits: { 'rules-rerun': { count: 1.5, per: 'minute' } } }),
    ).rejects.toThrow();
    await expect(startReferenceServer({ clients: [] })).rejects.toThrow(/four/);
    await expect(startReferenceServer({ observability: ['GET /api/rules/schedule'] })).rejects.toThrow();
  });

  it('uses the clients it is given, in role order', async () => {
    const clients = [
      { client_id: 'a', client_secret: 'sa', tenant: 't1' },
      { client_id: 'b', client_secret: 'sb', tenant: 't1' },
      { client_id: 'c', client_secret: 'sc', tenant: 't1', lacks: ['POST /event/transaction/v3' as const] },
      { client_id: 'd', client_secret: 'sd', tenant: 't2' },
    ];
    const t = await start({ clients, tenant: 't1' });
    expect(t.server.clients.restricted.client_id).toBe('c');
    expect((await t.call('POST /event/transaction/v3', { role: 'restricted' })).status).toBe(403);
    expect((await t.call('POST /event/transaction/v3', { role: 'other_tenant' })).status).toBe(202);
  });

  it('gives four default clients with fresh random secrets', async () => {
    const [a, b] = [await start(), await start()];
    const { primary, same_tenant, restricted, other_tenant } = a.server.clients;
    expect([primary.tenant, same_tenant.tenant, restricted.tenant, other_tenant.tenant]).toEqual([
      'acme',
      'acme',
      'acme',
      'globex',
    ]);
    expect(restricted.lacks).toEqual(['POST /api/rules/rerun']);
    expect(primary.client_secret).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(primary.client_secret).not.toBe(b.server.clients.primary.client_secret);
  });
});

describe('profile()', () => {
  const validate = new Ajv({ strict: false }).compile(profileSchema);

  it('is a valid harness profile for this server, without overrides by default', async () => {
    const t = await start();
    const profile = t.server.profile();
    expect(validate(profile), JSON.stringify(validate.errors)).toBe(true);
    expect(profile.base_url).toBe(t.server.baseUrl);
    expect(profile.auth_url).toBe(`${t.server.baseUrl}/oauth2/token`);
    expect(profile.clients.primary).toEqual({
      client_id: t.server.clients.primary.client_id,
      client_secret: t.server.clients.primary.client_secret,
    });
    expect(profile.clients.other_tenant?.tenant).toBe('globex');
    expect(profile.clients.restricted?.lacks).toEqual(['POST /api/rules/rerun']);
    expect(profile.observability).toEqual(t.server.options.observability);
    expect(profile.ids).toEqual({
      batch_id: { from: UPLOAD, pointer: '/batch_id' },
      execution_id: { from: EXECUTE, pointer: '/execution_id' },
    });
    expect(Object.keys(profile.requests ?? {})).toContain('POST /event/transaction/v3');
    expect(profile.limits).toBeUndefined();
    expect(profile.token_lifetime).toBeUndefined();
  });

  it('lists overridden limits and token lifetime only', async () => {
    const t = await start({
      tokenLifetimeSeconds: 30,
      limits: {
        'transaction-event': { count: 430, per: 'second' },
        'rules-rerun': { count: 1, per: 'minute' },
      },
    });
    const profile = t.server.profile();
    expect(validate(profile)).toBe(true);
    expect(profile.limits).toEqual({ 'transaction-event': { count: 430, per: 'second' } });
    expect(profile.token_lifetime).toBe(30);
  });
});
