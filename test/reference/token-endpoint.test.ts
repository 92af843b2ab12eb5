import { describe, expect, it } from 'vitest';
import { TOKEN_LIFETIME_SECONDS, TOKEN_REQUEST_FIELDS } from '../../src/spec/index.ts';
import { FORM, useServers } from './helpers.ts';

const start = useServers();

describe('token endpoint (SPEC.md §4 token payload, §5 rules 1-2, §7)', () => {
  it('issues a Bearer token for a form-encoded client_credentials request', async () => {
    const t = await start();
    const answer = await t.tokenReply(t.fields());
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('application/json');
    expect(answer.headers['cache-control']).toBe('no-store');
    expect(answer.headers.pragma).toBe('no-cache');
    expect(answer.json).toEqual({
      access_token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      expires_in: TOKEN_LIFETIME_SECONDS,
      token_type: 'Bearer',
    });
  });

  it('issues a new token on every request', async () => {
    const t = await start();
    const [a, b] = await Promise.all([t.newToken(), t.newToken()]);
    expect(a).not.toBe(b);
  });

  it('accepts a charset parameter and any case of the media type', async () => {
    const t = await start();
    expect((await t.tokenReply(t.fields(), `${FORM}; charset=UTF-8`)).status).toBe(200);
    expect((await t.tokenReply(t.fields(), 'Application/X-WWW-Form-URLEncoded')).status).toBe(200);
  });

  it('reports the configured lifetime in expires_in', async () => {
    const t = await start({ tokenLifetimeSeconds: 5 });
    expect((await t.tokenReply(t.fields())).json.expires_in).toBe(5);
  });

  it.each([
    ['a JSON body', 'application/json'],
    ['no content type', null],
    ['text/plain', 'text/plain'],
  ])('answers %s with 400 invalid_request', async (_, contentType) => {
    const t = await start();
    const fields = t.fields();
    const body =
      contentType === 'application/json' ? JSON.stringify(fields) : new URLSearchParams(fields).toString();
    const answer = await t.tokenReply(body, contentType);
    expect(answer.status).toBe(400);
    expect(answer.json.error).toBe('invalid_request');
    expect(answer.json.error_description).toEqual(expect.any(String));
  });

  it.each(TOKEN_REQUEST_FIELDS.map((f) => f.name))(
    'answers a missing or empty %s with 400 invalid_request',
    async (name) => {
      const t = await start();
      const fields = t.fields();
      const { [name]: _, ...rest } = fields;
      for (const body of [rest, { ...rest, [name]: '' }]) {
        const answer = await t.tokenReply(body);
        expect(answer.status).toBe(400);
        expect(answer.json.error).toBe('invalid_request');
      }
    },
  );

  it('answers a duplicated field with 400 invalid_request (RFC 6749 §3.2)', async () => {
    const t = await start();
    const body = `${new URLSearchParams(t.fields())}&scope=tenant%2Facme`;
    const answer = await t.tokenReply(body);
    expect(answer.status).toBe(400);
    expect(answer.json.error).toBe('invalid_request');
  });

  it('answers another grant type with 400 unsupported_grant_type', async () => {
    const t = await start();
    const answer = await t.tokenReply({ ...t.fields(), grant_type: 'password' });
    expect(answer.status).toBe(400);
    expect(answer.json.error).toBe('unsupported_grant_type');
  });

  it('answers an unknown client_id or a wrong secret with 400 invalid_client', async () => {
    const t = await start();
    const secret = t.fields().client_secret;
    const changes: Record<string, string>[] = [
      { client_id: 'nobody' },
      { client_secret: `${secret}x` },
      { client_secret: 'short' },
    ];
    for (const change of changes) {
      const answer = await t.tokenReply({ ...t.fields(), ...change });
      expect(answer.status).toBe(400);
      expect(answer.json.error).toBe('invalid_client');
    }
    const other = await t.tokenReply({
      ...t.fields(),
      client_secret: t.fields('other_tenant').client_secret,
    });
    expect(other.json.error).toBe('invalid_client');
  });

  it.each(['acme', 'tenant/', 'tenant/acme/x', 'tenant/ac me', 'Tenant/acme', ' tenant/acme'])(
    'answers the malformed scope %j with 400 invalid_scope',
    async (scope) => {
      const t = await start();
      const answer = await t.tokenReply({ ...t.fields(), scope });
      expect(answer.status).toBe(400);
      expect(answer.json.error).toBe('invalid_scope');
    },
  );

  it('answers a well-formed scope of another tenant with 400 invalid_scope', async () => {
    const t = await start();
    const answer = await t.tokenReply({ ...t.fields(), scope: 'tenant/globex' });
    expect(answer.status).toBe(400);
    expect(answer.json.error).toBe('invalid_scope');
    expect((await t.tokenReply(t.fields('other_tenant'))).status).toBe(200);
  });

  it('sends no-store on errors too', async () => {
    const t = await start();
    const answer = await t.tokenReply({ ...t.fields(), grant_type: 'password' });
    expect(answer.headers['cache-control']).toBe('no-store');
  });

  it('answers another method with 405 and Allow: POST', async () => {
    const t = await start();
    const answer = await t.raw('/oauth2/token');
    expect(answer.status).toBe(405);
    expect(answer.headers.allow).toBe('POST');
  });
});
