// The seal a k6-operator runner's setup() puts on the tokens it hands its VUs (load/lib/token-seal.ts), run on
// Node's WebCrypto, the same API k6 implements: a token opens only with the same secrets, run id and role.
import { describe, expect, it } from 'vitest';
import { openToken, sealingKey, sealToken } from '../../load/lib/token-seal.ts';

const SECRETS = JSON.stringify({ primary: 'primary-secret-4f9c', restricted: 'restricted-secret-a1b2' });
const RUN = 'run-7d2e';
const ISSUED = {
  token: 'eyJhbGciOiJFZERTQSJ9.eyJzdWIiOiJwcmltYXJ5In0.c2lnbmF0dXJl',
  renewAt: 1_900_000_000_000,
};

describe('sealed setup tokens', () => {
  it('open with the same secrets, run id and role, and hold no token in clear', async () => {
    const sealed = await sealToken(await sealingKey(SECRETS, RUN), 'primary', ISSUED);
    expect(JSON.stringify(sealed)).not.toContain(ISSUED.token);
    expect(JSON.stringify(sealed)).not.toContain(Buffer.from(ISSUED.token).toString('hex'));
    expect(await openToken(await sealingKey(SECRETS, RUN), 'primary', sealed)).toEqual(ISSUED);
  });

  it('take a fresh nonce every time, so one token sealed twice gives two ciphertexts', async () => {
    const key = await sealingKey(SECRETS, RUN);
    const [a, b] = [await sealToken(key, 'primary', ISSUED), await sealToken(key, 'primary', ISSUED)];
    expect(a.iv).not.toBe(b.iv);
    expect(a.sealed).not.toBe(b.sealed);
  });

  it.each([
    ['other secrets', JSON.stringify({ primary: 'guess' }), RUN, 'primary'],
    ['another run', SECRETS, 'run-other', 'primary'],
    ['another role', SECRETS, RUN, 'restricted'],
  ])('open to nothing with %s', async (_, secrets, run, role) => {
    const sealed = await sealToken(await sealingKey(SECRETS, RUN), 'primary', ISSUED);
    expect(await openToken(await sealingKey(secrets, run), role, sealed)).toBeUndefined();
  });

  it('open to nothing once tampered with, or when not hex', async () => {
    const key = await sealingKey(SECRETS, RUN);
    const sealed = await sealToken(key, 'primary', ISSUED);
    const flipped = `${sealed.sealed.slice(0, -2)}${sealed.sealed.endsWith('00') ? '01' : '00'}`;
    expect(await openToken(key, 'primary', { ...sealed, sealed: flipped })).toBeUndefined();
    expect(await openToken(key, 'primary', { ...sealed, iv: 'not hex' })).toBeUndefined();
  });
});
