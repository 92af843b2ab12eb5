import { expect, it } from 'vitest';
import { type Evidence, REDACTED, redactToken, TargetError, TokenError } from '../../src/client/index.ts';
import { CLIENT, closeAfterEach, connect, rejectedWith } from './servers.ts';

const cleanup = closeAfterEach();

const evidenceOf = (err: unknown): Evidence => {
  if (err instanceof TokenError || err instanceof TargetError) return err.evidence;
  throw err;
};

it('keeps every secret and full token out of all evidence of a scripted session', async () => {
  const { target, tokens, api } = await connect(cleanup);
  const schedule = { method: 'GET', path: '/api/rules/schedule' } as const;
  const captured: unknown[] = [];

  captured.push((await tokens.issued(CLIENT)).evidence);
  // The fake API echoes each request, Authorization included, in its body and in a header.
  captured.push(await api.call(CLIENT, schedule));
  captured.push(await api.call(CLIENT, { method: 'POST', path: '/api/rules/execute', body: { rule: 'r1' } }));
  target.expireAll();
  const refreshed = await api.call(CLIENT, schedule);
  expect(refreshed.refreshed).toBe(true);
  captured.push(refreshed);
  const token = await tokens.token(CLIENT);
  const altered = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
  const truncated = token.slice(0, Math.floor(token.length / 2));
  captured.push(await api.raw(schedule, `Bearer ${altered}`));
  captured.push(await api.raw(schedule, `Bearer ${truncated}`));
  captured.push(await api.raw(schedule, token));
  captured.push(await tokens.requestToken(CLIENT));
  captured.push(await tokens.requestToken({ ...CLIENT, client_secret: `${CLIENT.client_secret}-wrong` }));
  target.expireAll();
  target.breakTokenEndpoint(400, { error: 'invalid_client', echo: CLIENT.client_secret });
  const failed = await rejectedWith(TokenError, api.call(CLIENT, schedule));
  captured.push(evidenceOf(failed), failed.rejected);

  const json = JSON.stringify(captured);
  expect(target.issued.length).toBeGreaterThanOrEqual(3);
  const forbidden = [
    CLIENT.client_secret,
    encodeURIComponent(CLIENT.client_secret),
    new URLSearchParams({ s: CLIENT.client_secret }).toString().slice(2),
    ...target.issued,
    altered,
    truncated,
  ];
  for (const value of forbidden) expect(json).not.toContain(value);
  for (const issued of target.issued) expect(json).toContain(redactToken(issued));
  expect(json).toContain(`Bearer ${redactToken(altered)}`);
  expect(json).toContain(`Bearer ${redactToken(truncated)}`);
  expect(json).toContain(`client_secret=${REDACTED}`);
  expect(refreshed.evidence.refresh?.token.response?.body).toMatch(
    /"access_token":"tok2…\(sha256:[0-9a-f]{12}\)"/,
  );
});
