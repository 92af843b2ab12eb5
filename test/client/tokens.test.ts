import { describe, expect, it } from 'vitest';
import { HttpClient, TokenError, TokenManager } from '../../src/client/index.ts';
import { startHostile } from '../support/hostile.ts';
import { CLIENT, closeAfterEach, type FakeTarget, rejectedWith, startTarget, TENANT } from './servers.ts';

const cleanup = closeAfterEach();

interface Setup {
  target: FakeTarget;
  tokens: TokenManager;
  clock: { ms: number };
}

const setup = async (
  options: { expiresIn?: number; refreshMarginSeconds?: number; rememberFailures?: boolean } = {},
): Promise<Setup> => {
  const target = await startTarget(options.expiresIn);
  const http = new HttpClient();
  cleanup(
    () => http.close(),
    () => target.close(),
  );
  const clock = { ms: 1_000_000 };
  const tokens = new TokenManager({
    authUrl: target.authUrl,
    tenant: TENANT,
    http,
    now: () => clock.ms,
    ...(options.refreshMarginSeconds === undefined
      ? {}
      : { refreshMarginSeconds: options.refreshMarginSeconds }),
    rememberFailures: options.rememberFailures ?? false,
  });
  return { target, tokens, clock };
};

describe('TokenManager', () => {
  it('sends exactly the SPEC §5 rule 1 request', async () => {
    const { target, tokens } = await setup();
    expect(await tokens.token(CLIENT)).toBe(target.issued[0]);
    const [req] = target.tokenRequests();
    expect(req?.method).toBe('POST');
    expect(req?.headers['content-type']).toBe('application/x-www-form-urlencoded');
    const form = new URLSearchParams(req?.body);
    expect([...form.keys()].sort()).toEqual(['client_id', 'client_secret', 'grant_type', 'scope']);
    expect(Object.fromEntries(form)).toEqual({
      grant_type: 'client_credentials',
      client_id: CLIENT.client_id,
      client_secret: CLIENT.client_secret,
      scope: `tenant/${TENANT}`,
    });
  });

  it("uses the client's own tenant for the scope when it has one", async () => {
    const { target, tokens } = await setup();
    await tokens.requestToken({ ...CLIENT, tenant: 'other' });
    expect(new URLSearchParams(target.tokenRequests()[0]?.body).get('scope')).toBe('tenant/other');
  });

  it('reuses one token for many calls', async () => {
    const { target, tokens } = await setup();
    const seen = new Set<string>();
    for (let i = 0; i < 5; i++) seen.add(await tokens.token(CLIENT));
    expect(seen.size).toBe(1);
    expect(target.tokenRequests()).toHaveLength(1);
  });

  it('renews refreshMarginSeconds before expires_in runs out', async () => {
    const { target, tokens, clock } = await setup({ refreshMarginSeconds: 30 });
    const first = await tokens.token(CLIENT);
    clock.ms += (3600 - 30) * 1000 - 1;
    expect(await tokens.token(CLIENT)).toBe(first);
    clock.ms += 1;
    const second = await tokens.token(CLIENT);
    expect(second).not.toBe(first);
    expect(target.tokenRequests()).toHaveLength(2);
  });

  it('renews now a token that would be due for renewal by when it is to be used', async () => {
    const { target, tokens, clock } = await setup({ refreshMarginSeconds: 30 });
    const first = await tokens.token(CLIENT);
    const renewAt = clock.ms + (3600 - 30) * 1000;
    expect(await tokens.token(CLIENT, renewAt - 1)).toBe(first);
    const renewed = await tokens.token(CLIENT, renewAt);
    expect(renewed).not.toBe(first);
    clock.ms = renewAt - 1;
    expect(await tokens.token(CLIENT)).toBe(renewed);
    expect(target.tokenRequests()).toHaveLength(2);
  });

  it('caps the margin at half the lifetime so short-lived tokens are still reused', async () => {
    const { target, tokens, clock } = await setup({ expiresIn: 10 });
    await tokens.token(CLIENT);
    clock.ms += 4_999;
    await tokens.token(CLIENT);
    expect(target.tokenRequests()).toHaveLength(1);
    clock.ms += 1;
    await tokens.token(CLIENT);
    expect(target.tokenRequests()).toHaveLength(2);
  });

  it('lets concurrent callers share one token request', async () => {
    const { target, tokens } = await setup();
    const all = await Promise.all(Array.from({ length: 20 }, () => tokens.token(CLIENT)));
    expect(new Set(all).size).toBe(1);
    expect(target.tokenRequests()).toHaveLength(1);
  });

  it('invalidates only the token that was rejected', async () => {
    const { target, tokens } = await setup();
    const first = await tokens.token(CLIENT);
    tokens.invalidate(CLIENT, first);
    const second = await tokens.token(CLIENT);
    tokens.invalidate(CLIENT, first);
    expect(await tokens.token(CLIENT)).toBe(second);
    tokens.invalidate(CLIENT);
    expect(await tokens.token(CLIENT)).not.toBe(second);
    expect(target.tokenRequests()).toHaveLength(3);
  });

  it('requestToken always sends a fresh request and resolves whatever the status', async () => {
    const { target, tokens } = await setup();
    await tokens.token(CLIENT);
    const ex = await tokens.requestToken(CLIENT);
    expect(ex.status).toBe(200);
    expect((ex.json() as { access_token: string }).access_token).toBe(target.issued[1]);
    const bad = await tokens.requestToken({ ...CLIENT, client_secret: 'wrong-secret' });
    expect(bad.status).toBe(400);
    expect(target.tokenRequests()).toHaveLength(3);
  });

  it('throws TokenError with redacted evidence when the endpoint refuses', async () => {
    const { target, tokens } = await setup();
    target.breakTokenEndpoint(400, { error: 'invalid_scope' });
    const err = await rejectedWith(TokenError, tokens.token(CLIENT));
    expect(err.message).toContain('400');
    expect(err.evidence.response?.status).toBe(400);
    expect(err.evidence.request.body).toContain('client_secret=[REDACTED]');
    expect(JSON.stringify(err.evidence)).not.toContain(encodeURIComponent(CLIENT.client_secret));
  });

  it.each([
    ['no access_token', { expires_in: 3600, token_type: 'Bearer' }],
    ['an empty access_token', { access_token: '', expires_in: 3600 }],
    ['a JSON body that is not an object', 42],
    ['a body that is not JSON', 'access_token=abc'],
  ])('throws TokenError on 200 with %s, and does not cache the failure', async (_name, body) => {
    const { target, tokens } = await setup();
    target.breakTokenEndpoint(200, body);
    await rejectedWith(TokenError, tokens.token(CLIENT));
    await rejectedWith(TokenError, tokens.token(CLIENT));
    expect(target.tokenRequests()).toHaveLength(2);
  });

  it('with rememberFailures, answers a failed client with its first failure and sends nothing more', async () => {
    const { target, tokens } = await setup({ rememberFailures: true });
    target.breakTokenEndpoint(500, 'internal error');
    const first = await rejectedWith(TokenError, tokens.token(CLIENT));
    const again = await rejectedWith(TokenError, tokens.token(CLIENT));
    expect(again).toBe(first);
    expect(first.message).toContain('answered 500');
    expect(target.tokenRequests()).toHaveLength(1);
  });

  it('turns a token endpoint that fails to answer into a TokenError carrying the transport error', async () => {
    const hostile = await startHostile('reset');
    const http = new HttpClient();
    cleanup(
      () => http.close(),
      () => hostile.close(),
    );
    const tokens = new TokenManager({
      authUrl: hostile.authUrl,
      tenant: TENANT,
      http,
      rememberFailures: true,
    });
    const err = await rejectedWith(TokenError, tokens.token(CLIENT));
    expect(err.message).toMatch(/^connection reset: POST /);
    expect(err.evidence.error?.kind).toBe('reset');
    expect(await rejectedWith(TokenError, tokens.token(CLIENT))).toBe(err);
  });

  it('says a 200 whose body is over the cap holds no token', async () => {
    const hostile = await startHostile('endless');
    const http = new HttpClient({ maxBodyBytes: 64 * 1024 });
    cleanup(
      () => http.close(),
      () => hostile.close(),
    );
    const tokens = new TokenManager({ authUrl: hostile.authUrl, tenant: TENANT, http });
    const err = await rejectedWith(TokenError, tokens.token(CLIENT));
    expect(err.message).toContain('answered 200 with a body over 65536 bytes');
    expect(err.evidence.response?.body).toMatch(/\(body cut at 65536 bytes\)$/);
  });
});
