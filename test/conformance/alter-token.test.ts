// AUTH-BEARER-ALTERED's alteration: it must change what the token encodes, or a correct server serves it (FAIL).
import { randomBytes } from 'node:crypto';
import { compactVerify, generateKeyPair, SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { alterToken } from '../../conformance/alter-token.ts';

const TOKENS = 30;

/** Like an authorization server's access tokens: a fresh jti each, signed with one key. */
const jwtsSignedWith = async (alg: 'ES256' | 'EdDSA' | 'RS256', count = TOKENS) => {
  const { privateKey, publicKey } = await generateKeyPair(alg);
  const tokens = await Promise.all(
    Array.from({ length: count }, () =>
      new SignJWT({ scope: 'tenant/acme', client_id: 'harness-primary' })
        .setProtectedHeader({ alg, typ: 'at+jwt' })
        .setJti(randomBytes(16).toString('hex'))
        .setIssuedAt()
        .setExpirationTime('1h')
        .sign(privateKey),
    ),
  );
  const verifies = (token: string) =>
    compactVerify(token, publicKey).then(
      () => true,
      () => false,
    );
  return { tokens, verifies };
};

/** The alteration harness made before: the last character swapped, so for a 64-byte signature often unused bits only. */
const swapLast = (token: string) => `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;

describe('alterToken on JWTs', () => {
  it.each(['ES256', 'EdDSA', 'RS256'] as const)(
    '%s: never verifies, while its header and payload stay intact and its signature keeps its length',
    async (alg) => {
      const { tokens, verifies } = await jwtsSignedWith(alg);
      for (const token of tokens) {
        const altered = alterToken(token)!;
        const [header, payload, signature] = token.split('.');
        const [alteredHeader, alteredPayload, alteredSignature] = altered.token.split('.');
        expect([alteredHeader, alteredPayload]).toEqual([header, payload]);
        expect(alteredSignature).toHaveLength(signature!.length);
        expect(alteredSignature).toMatch(/^[A-Za-z0-9_-]+$/);
        expect(Buffer.from(alteredSignature!, 'base64url')).not.toEqual(Buffer.from(signature!, 'base64url'));
        expect(await verifies(altered.token)).toBe(false);
      }
    },
  );

  it('ES256: the old last-character swap still verifies for some tokens (the false FAIL), the new one for none', async () => {
    const { tokens, verifies } = await jwtsSignedWith('ES256', 100);
    const served = async (alter: (t: string) => string) =>
      (await Promise.all(tokens.map((t) => verifies(alter(t))))).filter(Boolean).length;
    // A signature's last character is one of A, Q, g, w (2 data bits, 4 zero bits): A becomes B, a change of unused
    // bits, in about one token of four. A hundred tokens without a single A at the end: 0.75^100, about 3e-13.
    expect(await served(swapLast)).toBeGreaterThan(0);
    expect(await served((t) => alterToken(t)!.token)).toBe(0);
  });

  it('says what changed, in the signature, without any character of the token', async () => {
    const { tokens } = await jwtsSignedWith('ES256');
    const { change } = alterToken(tokens[0]!)!;
    expect(change).toMatch(
      /^JWT \(ES256\) with character 44 of its 86-character signature changed, so [1-2] of its 64 decoded bytes differ$/,
    );
  });

  it('alters the payload of an unsigned JWT (alg none), which has no signature to alter', () => {
    const segment = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const payload = segment({ sub: 'harness-primary', scope: 'tenant/acme', jti: 'x'.repeat(20) });
    const token = `${segment({ alg: 'none' })}.${payload}.`;
    const altered = alterToken(token)!;
    const [, alteredPayload, signature] = altered.token.split('.');
    expect(alteredPayload).not.toBe(payload);
    expect(signature).toBe('');
    expect(altered.change).toMatch(/^JWT \(none\) with character \d+ of its \d+-character payload changed/);
  });

  it('alters the authentication tag of a JWE (five segments)', () => {
    const header = Buffer.from(JSON.stringify({ alg: 'dir', enc: 'A256GCM' })).toString('base64url');
    const b64 = (n: number) => randomBytes(n).toString('base64url');
    const token = [header, '', b64(12), b64(40), b64(16)].join('.');
    const altered = alterToken(token)!;
    expect(altered.token.split('.').slice(0, 4)).toEqual(token.split('.').slice(0, 4));
    expect(altered.change).toMatch(/^JWE \(dir\) with character 12 of its 22-character authentication tag/);
  });
});

describe('alterToken on opaque tokens', () => {
  it('changes one character inside the token, never the last, keeping its length and alphabet', () => {
    for (let i = 0; i < TOKENS; i++) {
      for (const token of [randomBytes(32).toString('base64url'), randomBytes(20).toString('hex')]) {
        const { token: altered, change } = alterToken(token)!;
        expect(altered).toHaveLength(token.length);
        const differ = [...token].flatMap((c, at) => (c === altered[at] ? [] : [at]));
        expect(differ).toHaveLength(1);
        expect(differ[0]).toBeLessThan(token.length - 1);
        expect(new Set([...token, ...altered])).toEqual(new Set(token));
        expect(change).toMatch(/^opaque token with character \d+ of \d+ changed/);
      }
    }
  });

  it('finds no character to alter in a token too short or of a single repeated character', () => {
    expect(alterToken('ab')).toBeUndefined();
    expect(alterToken('aaaaaaaa')).toBeUndefined();
  });
});
