import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { REDACTED, Redactor, redactToken } from '../../src/client/index.ts';
import { seededRandom } from '../support/random.ts';

const TOKEN = 'eyJhbGciOiJSUzI1NiJ9.payload.signature';
const sha12 = (s: string) => createHash('sha256').update(s).digest('hex').slice(0, 12);

describe('redactToken', () => {
  it('shows the first four characters and the first 12 hex digits of the sha256', () => {
    expect(redactToken(TOKEN)).toBe(`eyJh…(sha256:${sha12(TOKEN)})`);
  });

  it('shows no prefix for values short enough that four characters would give them away', () => {
    expect(redactToken('abcdefgh')).toBe(`…(sha256:${sha12('abcdefgh')})`);
    expect(redactToken('')).toBe('');
  });
});

describe('Redactor', () => {
  it('replaces client_secret in form and JSON bodies, whatever its value', () => {
    const r = new Redactor();
    expect(r.text('grant_type=client_credentials&client_secret=abc%2Bdef&scope=tenant%2Ft')).toBe(
      `grant_type=client_credentials&client_secret=${REDACTED}&scope=tenant%2Ft`,
    );
    expect(r.text('{"client_id":"c", "client_secret" : "a\\"b"}')).toBe(
      `{"client_id":"c", "client_secret" : "${REDACTED}"}`,
    );
  });

  it('hides a registered secret in every wire form it can take', () => {
    const r = new Redactor();
    const secret = 'p@ss word/+&"x';
    r.addSecret(secret);
    const forms = [
      secret,
      encodeURIComponent(secret),
      new URLSearchParams({ s: secret }).toString().slice(2),
    ];
    const text = `${forms.join(' | ')} | ${JSON.stringify({ nested: secret })}`;
    expect(r.text(text)).toBe(`${REDACTED} | ${REDACTED} | ${REDACTED} | {"nested":"${REDACTED}"}`);
  });

  it('hides it as encoders and error pages write it too (issue 22: each reached a report)', () => {
    const r = new Redactor();
    const secret = "s3cr/et<&>'é-9f2c";
    r.addSecret(secret);
    const plain = JSON.stringify(secret).slice(1, -1);
    const forms = {
      'PHP json_encode': plain.replaceAll('/', '\\/'),
      "Go's encoding/json": plain.replace('<', '\\u003c').replace('&', '\\u0026').replace('>', '\\u003e'),
      'PHP JSON_HEX_*': plain
        .replaceAll('/', '\\/')
        .replace('<', '\\u003C')
        .replace('&', '\\u0026')
        .replace('>', '\\u003E')
        .replace("'", '\\u0027'),
      "Python's json.dumps": plain.replace('é', '\\u00e9'),
      'lower-case percent-encoding': encodeURIComponent(secret).replace(/%[0-9A-F]{2}/g, (h) =>
        h.toLowerCase(),
      ),
      'HTML-escaped': secret
        .replace('&', '&amp;')
        .replace('<', '&lt;')
        .replace('>', '&gt;')
        .replace("'", '&#39;'),
      base64: Buffer.from(secret).toString('base64'),
      base64url: Buffer.from(secret).toString('base64url'),
    };
    for (const [encoder, form] of Object.entries(forms)) {
      expect(form, encoder).not.toBe(secret);
      expect(r.text(`echoed: ${form}.`), encoder).toBe(`echoed: ${REDACTED}.`);
    }
  });

  it("hides a client's id and secret as HTTP Basic sends them, echoed by a page", () => {
    const r = new Redactor();
    r.addClient('harness-primary', 'basic-secret-7d0e5a');
    const basic = Buffer.from('harness-primary:basic-secret-7d0e5a').toString('base64');
    expect(r.text(`{"headers":{"authorization":"Basic ${basic}"}}`)).not.toContain(basic);
    expect(r.known(`Authorization: Basic ${basic}`)).toBe(`Authorization: Basic ${REDACTED}`);
  });

  it('hides an access_token sent as an object, an array or a number, whole and in one pass', () => {
    const r = new Redactor();
    const body =
      '{"access_token":{"value":"inner-token-1f9a","nested":[{"k":"}"}]},"refresh_token":[1,"r-5e"],"id_token":123456789,"token_type":"Bearer"}';
    expect(r.text(body)).toBe(
      `{"access_token":"${REDACTED}","refresh_token":"${REDACTED}","id_token":"${REDACTED}","token_type":"Bearer"}`,
    );
    // Cut short, the object runs to the end of the text: all of it hidden.
    expect(r.text('{"access_token": {"value":"inner-token-1f9a"')).toBe(`{"access_token": "${REDACTED}"`);
  });

  it('redacts an access_token field and learns it, so later occurrences anywhere are hidden too', () => {
    const r = new Redactor();
    expect(r.text(JSON.stringify({ access_token: TOKEN, expires_in: 3600 }))).toBe(
      `{"access_token":"${redactToken(TOKEN)}","expires_in":3600}`,
    );
    expect(r.text(`echo ${TOKEN}!`)).toBe(`echo ${redactToken(TOKEN)}!`);
    expect(r.header('x-debug', `seen ${TOKEN}`)).toBe(`seen ${redactToken(TOKEN)}`);
  });

  it('keeps the scheme of credential headers and redacts whatever follows it', () => {
    const r = new Redactor();
    const altered = `${TOKEN.slice(0, -1)}X`;
    expect(r.header('authorization', `Bearer ${altered}`)).toBe(`Bearer ${redactToken(altered)}`);
    expect(r.header('authorization', `Basic ${TOKEN}`)).toBe(`Basic ${redactToken(TOKEN)}`);
    expect(r.header('authorization', TOKEN)).toBe(redactToken(TOKEN));
    expect(r.header('authorization', 'Bearer')).toBe('Bearer');
    expect(r.header('authorization', 'Bearer ')).toBe('Bearer ');
    expect(r.text(`it was ${altered}`)).toBe(`it was ${redactToken(altered)}`);
  });

  it('prefers the longest registered value, so a token and its truncation are both hidden whole', () => {
    const r = new Redactor();
    const half = TOKEN.slice(0, 20);
    r.addToken(half);
    r.addToken(TOKEN);
    expect(r.text(`${TOKEN} ${half}`)).toBe(`${redactToken(TOKEN)} ${redactToken(half)}`);
  });

  it('does not learn short values found in traffic, only redacts them in place', () => {
    const r = new Redactor();
    expect(r.text('{"access_token":"a"}')).toBe(`{"access_token":"${redactToken('a')}"}`);
    expect(r.text('banana')).toBe('banana');
  });

  it('redacts token query parameters in URLs', () => {
    const r = new Redactor();
    expect(r.text(`http://127.0.0.1/x?a=1&access_token=${TOKEN}#f`)).toBe(
      `http://127.0.0.1/x?a=1&access_token=${redactToken(TOKEN)}#f`,
    );
  });
});

/** A base64url-like token of `length` characters, different for every seed. */
const tokenOf = (length: number, seed: number): string => {
  const next = seededRandom(seed);
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  return Array.from({ length }, () => alphabet[Math.floor(next() * alphabet.length)]).join('');
};

describe('Redactor against tokens as large as a body can hold', () => {
  const SECRETS = ['first-client-secret', 'second-client-secret', 'third "secret"', 'fourth/secret+&'];

  it.each([40 * 1024, 64 * 1024 - 32])(
    'learns a %i-character access_token without failing, and hides it and every secret afterwards',
    (size) => {
      const r = new Redactor();
      for (const secret of SECRETS) r.addSecret(secret);
      const token = tokenOf(size, size);
      expect(r.text(JSON.stringify({ access_token: token }))).toBe(
        `{"access_token":"${redactToken(token)}"}`,
      );
      const echo = `${token} ${SECRETS.join(' ')} ${encodeURIComponent(SECRETS[3]!)}`;
      expect(r.text(echo)).toBe(`${redactToken(token)} ${Array(5).fill(REDACTED).join(' ')}`);
      expect(r.header('x-echo', token)).toBe(redactToken(token));
    },
  );

  it('hides each of 1,000 learned tokens wherever it appears, the longest registered value winning', () => {
    const r = new Redactor();
    const tokens = Array.from({ length: 1000 }, (_, i) => tokenOf(64 + (i % 7), i));
    for (const token of tokens) r.text(`{"access_token":"${token}"}`);
    const text = tokens.map((t, i) => (i % 2 === 0 ? `<${t}>` : t.slice(0, 40))).join(' ');
    const expected = tokens.map((t, i) => (i % 2 === 0 ? `<${redactToken(t)}>` : t.slice(0, 40))).join(' ');
    expect(r.text(text)).toBe(expected);
  });
});
