// The reference server's JWT mode (tokens: 'jwt'): access tokens signed and verified with jose, as a server built
// from OAuth and JWT libraries issues and checks them.
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { describe, expect, it } from 'vitest';
import { alterToken } from '../../conformance/alter-token.ts';
import { resolveOptions } from '../../src/reference/options.ts';
import { useServers } from './helpers.ts';

const start = useServers();
const TX = 'POST /event/transaction/v3';
/** A server issuing 100 tokens has one ending in A, whose swap to B changes unused bits only: 1 - 0.75^100. */
const TOKENS = 100;

describe('reference server with tokens: jwt', () => {
  it('hands out ES256 JWT access tokens (RFC 9068) that serve the client they name until their lifetime ends', async () => {
    const t = await start({ tokens: 'jwt' });
    const token = await t.newToken();
    expect(decodeProtectedHeader(token)).toEqual({ alg: 'ES256', typ: 'at+jwt' });
    const claims = decodeJwt(token);
    expect(claims).toMatchObject({
      sub: 'harness-primary',
      client_id: 'harness-primary',
      scope: 'tenant/acme',
    });
    expect(claims.exp! - claims.iat!).toBe(t.server.options.tokenLifetimeSeconds);
    expect(t.server.issuedTokens()).toEqual([token]);
    expect((await t.call(TX, { token })).status).toBe(202);
    t.clock.advance(t.server.options.tokenLifetimeSeconds * 1000);
    expect((await t.call(TX, { token })).status).toBe(401);
  });

  it('refuses a token signed by another server, and every altered, truncated or extended token', async () => {
    const t = await start({ tokens: 'jwt' });
    const other = await start({ tokens: 'jwt' });
    const token = await t.newToken();
    const bad = [
      await other.newToken(),
      alterToken(token)!.token,
      token.slice(0, token.lastIndexOf('.') + 1),
    ];
    for (const authorization of [...bad, token.slice(0, 40), `${token}x`].map((b) => `Bearer ${b}`)) {
      const answer = await t.call(TX, { authorization });
      expect([answer.status, answer.headers['www-authenticate']]).toEqual([
        401,
        'Bearer error="invalid_token"',
      ]);
    }
  });

  it('verifies as a JWT library does: a change to unused bits of the last character is no change', async () => {
    const t = await start({ tokens: 'jwt' });
    const tokens = await Promise.all(Array.from({ length: TOKENS }, () => t.newToken()));
    const endingInA = tokens.find((token) => token.endsWith('A'))!;
    expect((await t.call(TX, { token: `${endingInA.slice(0, -1)}B` })).status).toBe(202);
  });

  it('keeps its bearer faults in JWT mode: altered and truncated tokens are taken, single-use tokens work once', async () => {
    const altered = await start({ tokens: 'jwt', fault: 'altered-token-accepted' });
    expect((await altered.call(TX, { token: alterToken(await altered.newToken())!.token })).status).toBe(202);
    const truncated = await start({ tokens: 'jwt', fault: 'truncated-token-accepted' });
    const full = await truncated.newToken();
    expect((await truncated.call(TX, { token: full.slice(0, full.length / 2) })).status).toBe(202);
    const singleUse = await start({ tokens: 'jwt', fault: 'token-single-use' });
    const once = await singleUse.newToken();
    expect((await singleUse.call(TX, { token: once })).status).toBe(202);
    expect((await singleUse.call(TX, { token: once })).status).toBe(401);
  });

  it('in gateway mode, counts an expired JWT toward its tenant and an altered one toward the anonymous key', async () => {
    const RERUN = 'POST /api/rules/rerun';
    const t = await start({ tokens: 'jwt', limitBeforeAuth: true, tokenLifetimeSeconds: 1 });
    const expired = await t.newToken();
    expect((await t.call(RERUN, { token: alterToken(expired)!.token })).status).toBe(401);
    t.clock.advance(1000);
    expect((await t.call(RERUN, { token: expired })).status).toBe(401);
    expect((await t.call(RERUN, { role: 'same_tenant' })).status).toBe(429);
  });

  it('takes only the token kinds it knows', () => {
    expect(resolveOptions().tokens).toBe('opaque');
    expect(() => resolveOptions({ tokens: 'paseto' as 'jwt' })).toThrow('unknown token kind paseto');
  });
});
