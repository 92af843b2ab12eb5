// What each fault looks like from outside, in more detail than the probes; plus a spot check that the rules next
// to it still hold.
import { describe, expect, it } from 'vitest';
import { alterToken } from '../../conformance/alter-token.ts';
import { TOKEN_LIFETIME_SECONDS } from '../../src/spec/index.ts';
import { count, useServers } from './helpers.ts';

const start = useServers();
const TX = 'POST /event/transaction/v3';
const RERUN = 'POST /api/rules/rerun';

describe('token faults', () => {
  it('token-type-lowercase: says bearer, and the token still works', async () => {
    const t = await start({ fault: 'token-type-lowercase' });
    const answer = await t.tokenReply(t.fields());
    expect(answer.json.token_type).toBe('bearer');
    expect((await t.call(TX, { token: answer.json.access_token })).status).toBe(202);
  });

  it('expires-in-wrong: says 7200, the token still expires after 3600 s', async () => {
    const t = await start({ fault: 'expires-in-wrong' });
    const answer = await t.tokenReply(t.fields());
    expect(answer.json.expires_in).toBe(7200);
    t.clock.advance(TOKEN_LIFETIME_SECONDS * 1000);
    expect((await t.call(TX, { token: answer.json.access_token })).status).toBe(401);
  });

  it('expires-in-string: says "3600"', async () => {
    const t = await start({ fault: 'expires-in-string' });
    expect((await t.tokenReply(t.fields())).json.expires_in).toBe('3600');
  });

  it('token-json-only: refuses the form with invalid_request, takes JSON', async () => {
    const t = await start({ fault: 'token-json-only' });
    const form = await t.tokenReply(t.fields());
    expect([form.status, form.json.error]).toEqual([400, 'invalid_request']);
    const json = await t.tokenReply(JSON.stringify(t.fields()), 'application/json');
    expect(json.status).toBe(200);
    const bad = await t.tokenReply(JSON.stringify({ ...t.fields(), client_secret: 'x' }), 'application/json');
    expect([bad.status, bad.json.error]).toEqual([400, 'invalid_client']);
  });

  it('wrong-secret-401: 401 for a wrong secret, still 400 for an unknown client', async () => {
    const t = await start({ fault: 'wrong-secret-401' });
    const secret = await t.tokenReply({ ...t.fields(), client_secret: 'wrong' });
    expect([secret.status, secret.json.error]).toEqual([401, 'invalid_client']);
    const unknown = await t.tokenReply({ ...t.fields(), client_id: 'nobody' });
    expect([unknown.status, unknown.json.error]).toEqual([400, 'invalid_client']);
  });

  it("malformed-scope-accepted: takes 'acme', still refuses another tenant", async () => {
    const t = await start({ fault: 'malformed-scope-accepted' });
    const malformed = await t.tokenReply({ ...t.fields(), scope: 'acme' });
    expect(malformed.status).toBe(200);
    expect((await t.call(TX, { token: malformed.json.access_token })).status).toBe(202);
    expect((await t.tokenReply({ ...t.fields(), scope: 'tenant/globex' })).json.error).toBe('invalid_scope');
  });

  it('no-cache-control: drops Cache-Control, keeps Pragma', async () => {
    const t = await start({ fault: 'no-cache-control' });
    const answer = await t.tokenReply(t.fields());
    expect(answer.headers['cache-control']).toBeUndefined();
    expect(answer.headers.pragma).toBe('no-cache');
  });

  it('unknown-client-401: 401 for an unknown client_id, still 400 for a wrong secret', async () => {
    const t = await start({ fault: 'unknown-client-401' });
    const unknown = await t.tokenReply({ ...t.fields(), client_id: 'nobody' });
    expect([unknown.status, unknown.json.error]).toEqual([401, 'invalid_client']);
    expect((await t.tokenReply({ ...t.fields(), client_secret: 'wrong' })).status).toBe(400);
  });

  it("missing-scope-accepted: a token for the client's own tenant without scope; another field is still required", async () => {
    const t = await start({ fault: 'missing-scope-accepted' });
    const { scope: _scope, ...withoutScope } = t.fields();
    const answer = await t.tokenReply(withoutScope);
    expect(answer.status).toBe(200);
    expect((await t.call(TX, { token: answer.json.access_token })).status).toBe(202);
    const { client_id: _id, ...withoutId } = t.fields();
    expect((await t.tokenReply(withoutId)).json.error).toBe('invalid_request');
  });

  it('missing-secret-401: 401 invalid_client without client_secret, still 400 without scope', async () => {
    const t = await start({ fault: 'missing-secret-401' });
    const { client_secret: _secret, ...withoutSecret } = t.fields();
    const answer = await t.tokenReply(withoutSecret);
    expect([answer.status, answer.json.error]).toEqual([401, 'invalid_client']);
    const { scope: _scope, ...withoutScope } = t.fields();
    expect((await t.tokenReply(withoutScope)).status).toBe(400);
  });

  it('unsupported-grant-401: 401 unsupported_grant_type for another grant type', async () => {
    const t = await start({ fault: 'unsupported-grant-401' });
    const answer = await t.tokenReply({ ...t.fields(), grant_type: 'password' });
    expect([answer.status, answer.json.error]).toEqual([401, 'unsupported_grant_type']);
  });

  it('grant-type-unchecked: takes any grant_type but still requires one', async () => {
    const t = await start({ fault: 'grant-type-unchecked' });
    expect((await t.tokenReply({ ...t.fields(), grant_type: 'password' })).status).toBe(200);
    const { grant_type: _, ...rest } = t.fields();
    expect((await t.tokenReply(rest)).json.error).toBe('invalid_request');
  });
});

describe('bearer faults', () => {
  it('missing-token-accepted: serves a request without Authorization, still refuses a bad token', async () => {
    const t = await start({ fault: 'missing-token-accepted' });
    expect((await t.call(TX, { token: null })).status).toBe(202);
    expect((await t.call(TX, { token: 'bad-token' })).status).toBe(401);
  });

  it('truncated-token-accepted: takes prefixes of 8 characters or more, not shorter or altered ones', async () => {
    const t = await start({ fault: 'truncated-token-accepted' });
    const token = await t.newToken();
    expect((await t.call(TX, { token: token.slice(0, 8) })).status).toBe(202);
    expect((await t.call(TX, { token: token.slice(0, 7) })).status).toBe(401);
    expect((await t.call(TX, { token: `${token}x` })).status).toBe(401);
  });

  it('altered-token-accepted: takes a token with one character changed, not a shorter or longer one', async () => {
    const t = await start({ fault: 'altered-token-accepted' });
    const token = await t.newToken();
    const altered = alterToken(token)!.token;
    expect((await t.call(TX, { token: altered })).status).toBe(202);
    const twice = `${altered.startsWith('A') ? 'B' : 'A'}${altered.slice(1)}`;
    expect((await t.call(TX, { token: twice })).status).toBe(401);
    expect((await t.call(TX, { token: token.slice(0, -1) })).status).toBe(401);
    expect((await t.call(TX, { token: `${altered}x` })).status).toBe(401);
  });

  it('no-www-authenticate: 401s without a challenge; the 403 keeps its own', async () => {
    const t = await start({ fault: 'no-www-authenticate' });
    for (const token of [null, 'bad-token']) {
      const answer = await t.call(TX, { token });
      expect([answer.status, answer.headers['www-authenticate']]).toEqual([401, undefined]);
    }
    expect((await t.call(RERUN, { role: 'restricted' })).headers['www-authenticate']).toBe(
      'Bearer error="insufficient_scope"',
    );
  });

  it('expired-token-accepted: old tokens keep working', async () => {
    const t = await start({ fault: 'expired-token-accepted' });
    const token = await t.newToken();
    t.clock.advance(10 * TOKEN_LIFETIME_SECONDS * 1000);
    await t.newToken();
    expect((await t.call(TX, { token })).status).toBe(202);
  });

  it('token-single-use: the second call with a token gets 401 invalid_token', async () => {
    const t = await start({ fault: 'token-single-use' });
    const token = await t.newToken();
    expect((await t.call(TX, { token })).status).toBe(202);
    const second = await t.call(TX, { token });
    expect(second.status).toBe(401);
    expect(second.headers['www-authenticate']).toBe('Bearer error="invalid_token"');
  });

  it('forbidden-as-401: 401 invalid_token where 403 belongs; others unaffected', async () => {
    const t = await start({ fault: 'forbidden-as-401' });
    const answer = await t.call(RERUN, { role: 'restricted' });
    expect(answer.status).toBe(401);
    expect(answer.headers['www-authenticate']).toBe('Bearer error="invalid_token"');
    expect((await t.call(RERUN)).status).toBe(202);
  });
});

describe('limit faults', () => {
  it.each([
    ['retry-after-missing', undefined],
    ['retry-after-http-date', 'Thu, 01 Jan 2026 00:01:00 GMT'],
    ['retry-after-fractional', '60.5'],
    ['retry-after-too-short', '30'],
    ['retry-after-too-long', '3600'],
  ] as const)('%s: Retry-After is %s', async (fault, expected) => {
    const t = await start({ fault });
    await t.call(RERUN);
    const answer = await t.call(RERUN);
    expect(answer.status).toBe(429);
    expect(answer.headers['retry-after']).toBe(expected);
  });

  it('limited-as-503: 503 with an honest Retry-After', async () => {
    const t = await start({ fault: 'limited-as-503' });
    await t.call(RERUN);
    const answer = await t.call(RERUN);
    expect([answer.status, answer.headers['retry-after']]).toEqual([503, '60']);
  });

  it('retry-after-rounded-down: the wait in whole seconds rounded down, never 0', async () => {
    const t = await start({ fault: 'retry-after-rounded-down' });
    await t.call(RERUN);
    t.clock.advance(500);
    expect((await t.call(RERUN)).headers['retry-after']).toBe('59');
    t.clock.advance(59_400);
    expect((await t.call(RERUN)).headers['retry-after']).toBe('1');
  });

  it('limited-503-one-in-ten: every tenth refusal of a key is 503, with the Retry-After a 429 would carry', async () => {
    const t = await start({ fault: 'limited-503-one-in-ten' });
    await t.call(RERUN);
    const answers = [];
    for (let i = 0; i < 20; i++) answers.push(await t.call(RERUN));
    expect(answers.map((a) => a.status)).toEqual(
      Array.from({ length: 20 }, (_, i) => ((i + 1) % 10 === 0 ? 503 : 429)),
    );
    expect(new Set(answers.map((a) => a.headers['retry-after']))).toEqual(new Set(['60']));
  });

  it('wrong-limit-execute: admits 40 of 30 while options still say 30', async () => {
    const t = await start({ fault: 'wrong-limit-execute' });
    expect(count(await t.burst(45, 'POST /api/rules/execute'), 202)).toBe(40);
    expect(t.server.options.limits['rules-execute'].count).toBe(30);
  });

  it('wrong-limit-transaction: admits 450 of 500', async () => {
    const t = await start({ fault: 'wrong-limit-transaction' });
    expect(count(await t.burst(505, TX), 202)).toBe(450);
  });

  it('wrong-limit-transaction: admits 387 of an override of 430', async () => {
    const t = await start({
      fault: 'wrong-limit-transaction',
      limits: { 'transaction-event': { count: 430, per: 'second' } },
    });
    expect(count(await t.burst(435, TX), 202)).toBe(387);
  });

  it('limit-blocks-tenant: one 429 refuses the tenant everywhere until that limit admits, not another tenant', async () => {
    const t = await start({ fault: 'limit-blocks-tenant' });
    await t.call(RERUN);
    expect((await t.call(RERUN)).status).toBe(429);
    const blocked = await t.call(TX);
    expect([blocked.status, blocked.headers['retry-after']]).toEqual([429, '60']);
    expect((await t.call(TX, { role: 'other_tenant' })).status).toBe(202);
    t.clock.advance(60_000);
    expect((await t.call(TX)).status).toBe(202);
  });

  it('issued-ids-unknown: a batch id the server just issued gets 404', async () => {
    const t = await start({ fault: 'issued-ids-unknown' });
    const { batch_id: id } = (await t.call('POST /api/transactions/batch/generate-upload-url')).json;
    expect((await t.call('GET /api/transactions/batch/status/{batch_id}', { id })).status).toBe(404);
  });

  it('no-limit-schedule: never limits the schedule, still limits the rest', async () => {
    const t = await start({ fault: 'no-limit-schedule' });
    expect(count(await t.burst(200, 'GET /api/rules/schedule'), 200)).toBe(200);
    expect(count(await t.burst(21, 'POST /api/transactions/batch/generate-upload-url'), 429)).toBe(1);
  });
});

describe('apiStatus (hostile, not a fault)', () => {
  it('answers every API request with that status, and the token endpoint as usual', async () => {
    const t = await start({ apiStatus: 500 });
    expect((await t.tokenReply(t.fields())).status).toBe(200);
    expect((await t.call(TX)).status).toBe(500);
    expect((await t.call(TX, { token: null })).status).toBe(500);
    expect((await t.call(RERUN, { role: 'restricted' })).status).toBe(500);
  });
});
