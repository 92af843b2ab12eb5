// `harness load` never follows a redirect, as conformance never does: k6 follows up to ten by default, and a token
// endpoint or an API answering 307 to another host had it send the client secret there in every token request,
// the bearer token and the profile's credential headers in every call. A sink on another loopback port counts what
// reaches it; the redirect itself is graded as an answer.
import { describe, expect, it } from 'vitest';
import { startReferenceServer } from '../../src/reference/index.ts';
import { harness, profileFile, tmp } from '../cli/run.ts';
import { routedThrough, startForwarding, startSink } from '../support/forward.ts';
import { TRANSACTIONS } from './run-load.ts';

const TOKEN_PATH = '/oauth2/token';

describe('harness load against a target that redirects', () => {
  it.each([
    ['the token endpoint', (path: string) => path === TOKEN_PATH, /307/],
    [
      'every API endpoint',
      (path: string) => path !== TOKEN_PATH,
      /answered with a status other than 2xx or 429 \(a redirect, never followed, among them\)/,
    ],
  ])(
    'sends nothing to where %s redirects, and grades it',
    { timeout: 120_000 },
    async (_, redirects, graded) => {
      const sink = await startSink();
      const reference = await startReferenceServer({
        minuteMs: 2000,
        limits: { 'transaction-event': { count: 200, per: 'second' } },
      });
      const profile = reference.profile();
      const proxy = await startForwarding(new URL(profile.base_url).origin, ({ path }) =>
        redirects(path) ? { status: 307, location: `${sink.origin}${path}` } : undefined,
      );
      try {
        const { file, env } = profileFile({ ...profile, ...routedThrough(profile, proxy.origin) });
        const run = await harness(['load', '--profile', file, '--report-dir', tmp(), ...TRANSACTIONS], env);
        expect(sink.received(), run.stdout + run.stderr).toBe(0);
        expect(run.status).not.toBe(0);
        expect(`${run.stdout}\n${run.stderr}`).toMatch(graded);
      } finally {
        await proxy.close();
        await reference.close();
        await sink.close();
      }
    },
  );
});
