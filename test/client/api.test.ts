import { describe, expect, it } from 'vitest';
import { TokenError } from '../../src/client/index.ts';
import { CLIENT, closeAfterEach, connect, rejectedWith } from './servers.ts';

const cleanup = closeAfterEach();

// A trailing slash on the base URL, so every test also shows the client joins paths without doubling it.
const setup = () => connect(cleanup, (target) => `${target.origin}/`);

const SCHEDULE = { method: 'GET', path: '/api/rules/schedule' } as const;

describe('ApiClient.call', () => {
  it('sends the full bearer token and the JSON content type, and encodes body and query', async () => {
    const { target, api } = await setup();
    const ex = await api.call(CLIENT, {
      method: 'POST',
      path: '/event/transaction/v3',
      query: { dry: 'yes please' },
      body: { amount: 10 },
      headers: { Authorization: 'Bearer smuggled' },
    });
    expect(ex.status).toBe(200);
    expect(ex.refreshed).toBe(false);
    const [req] = target.apiRequests();
    expect(req?.url).toBe('/event/transaction/v3?dry=yes+please');
    expect(req?.headers.authorization).toBe(`Bearer ${target.issued[0]}`);
    expect(req?.headers['content-type']).toBe('application/json');
    expect(req?.body).toBe('{"amount":10}');
  });

  it('sends Content-Type: application/json on calls without a body too', async () => {
    const { target, api } = await setup();
    await api.call(CLIENT, SCHEDULE);
    expect(target.apiRequests()[0]?.headers['content-type']).toBe('application/json');
  });

  it('reuses one token for many calls and never sends credentials to the API', async () => {
    const { target, api } = await setup();
    const results = await Promise.all(Array.from({ length: 25 }, () => api.call(CLIENT, SCHEDULE)));
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect(target.tokenRequests()).toHaveLength(1);
    const credentialForms = [
      CLIENT.client_id,
      CLIENT.client_secret,
      encodeURIComponent(CLIENT.client_secret),
      new URLSearchParams({ s: CLIENT.client_secret }).toString().slice(2),
      'client_secret',
      'client_id',
    ];
    for (const req of target.apiRequests()) {
      const wire = JSON.stringify([req.url, req.headers, req.body]);
      for (const form of credentialForms) expect(wire).not.toContain(form);
    }
  });

  it('on 401 fetches a fresh token with the same request and retries once, recording the refresh', async () => {
    const { target, api } = await setup();
    await api.call(CLIENT, SCHEDULE);
    target.expireAll();
    const ex = await api.call(CLIENT, SCHEDULE);
    expect(ex.status).toBe(200);
    expect(ex.refreshed).toBe(true);
    const [first, second] = target.tokenRequests();
    expect(second?.body).toBe(first?.body);
    expect(second?.headers['content-type']).toBe(first?.headers['content-type']);
    expect(target.apiRequests().map((r) => r.headers.authorization)).toEqual([
      `Bearer ${target.issued[0]}`,
      `Bearer ${target.issued[0]}`,
      `Bearer ${target.issued[1]}`,
    ]);
    expect(ex.evidence.refresh?.rejected.response?.status).toBe(401);
    expect(ex.evidence.refresh?.token.response?.status).toBe(200);
    expect(ex.evidence.response?.status).toBe(200);
  });

  it('retries only once when the fresh token is rejected as well', async () => {
    const { target, api } = await setup();
    target.rejectAll();
    const ex = await api.call(CLIENT, SCHEDULE);
    expect(ex.status).toBe(401);
    expect(ex.refreshed).toBe(true);
    expect(target.apiRequests()).toHaveLength(2);
    expect(target.tokenRequests()).toHaveLength(2);
  });

  it('throws TokenError carrying the 401 when the refresh fails', async () => {
    const { target, api } = await setup();
    await api.call(CLIENT, SCHEDULE);
    target.expireAll();
    target.breakTokenEndpoint(400, { error: 'invalid_client' });
    const err = await rejectedWith(TokenError, api.call(CLIENT, SCHEDULE));
    expect(err.rejected?.response?.status).toBe(401);
    expect(err.evidence.response?.status).toBe(400);
  });
});

describe('ApiClient.raw', () => {
  it('sends exactly the Authorization given, or none, without refreshing', async () => {
    const { target, api, tokens } = await setup();
    const token = await tokens.token(CLIENT);
    const altered = await api.raw(SCHEDULE, `Bearer ${token}x`);
    const none = await api.raw({ ...SCHEDULE, headers: { authorization: `Bearer ${token}` } }, undefined);
    expect([altered.status, none.status]).toEqual([401, 401]);
    expect(altered.refreshed).toBe(false);
    const [a, n] = target.apiRequests();
    expect(a?.headers.authorization).toBe(`Bearer ${token}x`);
    expect(n?.headers.authorization).toBeUndefined();
    expect(n?.headers['content-type']).toBe('application/json');
    expect(target.tokenRequests()).toHaveLength(1);
  });
});
