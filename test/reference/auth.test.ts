import { describe, expect, it } from 'vitest';
import { ENDPOINTS, TOKEN_LIFETIME_SECONDS } from '../../src/spec/index.ts';
import { useServers } from './helpers.ts';

const start = useServers();
const TX = 'POST /event/transaction/v3';
const RERUN = 'POST /api/rules/rerun';

describe('bearer authentication (SPEC.md §5 rules 3-6, RFC 6750 §3)', () => {
  it('accepts the full token on every API endpoint and reuses it (rule 5)', async () => {
    const t = await start();
    const token = await t.newToken();
    for (const { key } of ENDPOINTS) expect((await t.call(key, { token })).status).toBeLessThan(500);
    expect((await t.call(TX, { token })).status).toBe(202);
  });

  it('answers a request without Authorization with 401 and a bare Bearer challenge', async () => {
    const t = await start();
    for (const { key } of ENDPOINTS) {
      const answer = await t.call(key, { token: null });
      expect(answer.status).toBe(401);
      expect(answer.headers['www-authenticate']).toBe('Bearer');
    }
  });

  it('treats another scheme or a scheme without token as missing bearer credentials', async () => {
    const t = await start();
    for (const authorization of [`Basic ${Buffer.from('a:b').toString('base64')}`, 'Bearer', 'Bearer ']) {
      const answer = await t.call(TX, { authorization });
      expect(answer.status).toBe(401);
      expect(answer.headers['www-authenticate']).toBe('Bearer');
    }
  });

  it('answers unknown, altered, truncated or extended tokens with 401 invalid_token', async () => {
    const t = await start();
    const token = await t.newToken();
    const altered = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
    for (const bad of ['nope', altered, token.slice(0, 20), token.slice(0, 8), `${token}x`]) {
      const answer = await t.call(TX, { authorization: `Bearer ${bad}` });
      expect(answer.status).toBe(401);
      expect(answer.headers['www-authenticate']).toBe('Bearer error="invalid_token"');
      expect(answer.json.error).toBe('invalid_token');
    }
    expect((await t.call(TX, { token })).status).toBe(202);
  });

  it('compares the scheme case-insensitively (RFC 9110 §11.1)', async () => {
    const t = await start();
    const token = await t.newToken();
    for (const scheme of ['bearer', 'BEARER', 'bEaReR']) {
      expect((await t.call(TX, { authorization: `${scheme} ${token}` })).status).toBe(202);
    }
  });

  it('expires tokens after their lifetime (rule 4) and a new token works', async () => {
    const t = await start();
    const token = await t.newToken();
    t.clock.advance(TOKEN_LIFETIME_SECONDS * 1000 - 1);
    expect((await t.call(TX, { token })).status).toBe(202);
    t.clock.advance(1);
    const expired = await t.call(TX, { token });
    expect(expired.status).toBe(401);
    expect(expired.headers['www-authenticate']).toBe('Bearer error="invalid_token"');
    expect((await t.call(TX, { token: await t.newToken() })).status).toBe(202);
  });

  it('uses the configured lifetime', async () => {
    const t = await start({ tokenLifetimeSeconds: 2 });
    const token = await t.newToken();
    t.clock.advance(1999);
    expect((await t.call(TX, { token })).status).toBe(202);
    t.clock.advance(1);
    expect((await t.call(TX, { token })).status).toBe(401);
  });

  it('works on the real clock by default', async () => {
    const t = await start({ clock: undefined });
    expect((await t.call(TX)).status).toBe(202);
  });

  it('answers a client lacking permission with 403 insufficient_scope (rule 6), only there', async () => {
    const t = await start();
    const answer = await t.call(RERUN, { role: 'restricted' });
    expect(answer.status).toBe(403);
    expect(answer.headers['www-authenticate']).toBe('Bearer error="insufficient_scope"');
    expect((await t.call(TX, { role: 'restricted' })).status).toBe(202);
    expect((await t.call(RERUN, { role: 'primary' })).status).toBe(202);
  });

  it('does not count 401 and 403 answers toward the limit', async () => {
    const t = await start();
    for (let i = 0; i < 3; i++) {
      expect((await t.call(RERUN, { role: 'restricted' })).status).toBe(403);
      expect((await t.call(RERUN, { token: 'bad-token' })).status).toBe(401);
      expect((await t.call(RERUN, { token: null })).status).toBe(401);
    }
    expect((await t.call(RERUN)).status).toBe(202);
    expect((await t.call(RERUN)).status).toBe(429);
  });
});
