// How the runner grades a check that ends otherwise than by its own verdict: a transport error in a check that may
// only warn is no FAIL, and a harness error's message never carries a secret.
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { silentProgress } from '../../src/runner/progress.ts';
import { runConformance } from '../../src/runner/runner.ts';
import { resolveTarget } from '../../src/runner/target.ts';
import type { CheckDefinition } from '../../src/runner/types.ts';

const SECRET = 'outcomes-test-secret-3f9a';

/** A loopback port nothing listens on: a request to it is refused at once. */
const closedPort = async (): Promise<number> => {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
};

const check = (id: string, failsWith: CheckDefinition['failsWith'], run: CheckDefinition['run']) =>
  ({
    id,
    title: id,
    clause: '§4',
    quote: 'All API endpoints require the bearer token described in Authentication.',
    tags: ['test'],
    lane: 'token',
    required: false,
    failsWith,
    plan: () => [],
    run,
  }) satisfies CheckDefinition;

const runChecks = async (...checks: CheckDefinition[]) => {
  const port = await closedPort();
  const target = resolveTarget({
    base_url: `http://127.0.0.1:${port}`,
    auth_url: `http://127.0.0.1:${port}/oauth2/token`,
    tenant: 'acme',
    clients: { primary: { client_id: 'a', client_secret: SECRET } },
  });
  const report = await runConformance(
    target,
    checks.map((c) => ({ check: c })),
    { progress: silentProgress, version: 'test', command: 'test' },
  );
  return Object.fromEntries(report.checks.map((c) => [c.id, c]));
};

const refusedRequest: CheckDefinition['run'] = async (ctx) => {
  await ctx.session.http.send({ method: 'GET', url: `${ctx.target.profile.base_url}/`, label: 'refused' });
  return 'answered';
};

describe('a transport error', () => {
  it('FAILs a check that may FAIL, and is INCONCLUSIVE, naming it, in one that may only WARN or inform', async () => {
    const checks = await runChecks(
      check('MAY-FAIL', ['FAIL'], refusedRequest),
      check('WARN-ONLY', ['WARN'], refusedRequest),
      check('INFO-ONLY', [], refusedRequest),
    );
    expect(checks['MAY-FAIL']?.grade).toBe('FAIL');
    for (const id of ['WARN-ONLY', 'INFO-ONLY']) {
      expect(checks[id]?.grade, id).toBe('INCONCLUSIVE');
      expect(checks[id]?.message).toMatch(/^the target failed to answer \(unreachable\)/);
    }
  });
});

describe('a harness error', () => {
  it('is graded ERROR with the secret its message quoted redacted', async () => {
    const checks = await runChecks(
      check('LEAKS', ['FAIL'], async (ctx) => {
        throw new Error(`bad client ${ctx.target.profile.clients.primary!.client_secret}`);
      }),
    );
    expect(checks.LEAKS?.grade).toBe('ERROR');
    expect(checks.LEAKS?.message).toMatch(/^harness error: Error: bad client \[REDACTED\]/);
    expect(checks.LEAKS?.message).not.toContain(SECRET);
  });
});
