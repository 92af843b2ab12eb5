// Which checks leave a rule unverified: an INCONCLUSIVE, or a SKIP the target forced (no token), but not a SKIP the
// user chose (--only, --skip, the profile's optional inputs). The CLI exits 5, no verdict, on the first kind.
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { inconclusive, skip, skipByChoice } from '../../src/runner/grades.ts';
import { silentProgress } from '../../src/runner/progress.ts';
import { runConformance } from '../../src/runner/runner.ts';
import { resolveTarget } from '../../src/runner/target.ts';
import type { CheckDefinition } from '../../src/runner/types.ts';

/** A loopback port nothing listens on: the token endpoint there fails at once. */
const closedPort = async (): Promise<number> => {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
};

const check = (id: string, run: CheckDefinition['run']): CheckDefinition => ({
  id,
  title: id,
  clause: '§4',
  quote: 'All API endpoints require the bearer token described in Authentication.',
  tags: ['test'],
  lane: 'token',
  required: false,
  failsWith: ['FAIL'],
  plan: () => [],
  run,
});

describe('the unverified checks of a run', () => {
  it('are the INCONCLUSIVE ones and the SKIPs the target forced, not those the user chose', async () => {
    const port = await closedPort();
    const target = resolveTarget({
      base_url: `http://127.0.0.1:${port}`,
      auth_url: `http://127.0.0.1:${port}/oauth2/token`,
      tenant: 'acme',
      clients: { primary: { client_id: 'a', client_secret: 'unverified-test-secret' } },
    });
    const report = await runConformance(
      target,
      [
        { check: check('PASSES', async () => 'holds') },
        { check: check('UNDECIDED', async () => inconclusive('the evidence cannot decide')) },
        { check: check('FORCED', async () => skip('the target gave no second id')) },
        { check: check('CHOSEN', async () => skipByChoice('the profile lists no Observability endpoints')) },
        {
          check: check('NO-TOKEN', async (ctx) => ctx.session.tokens.token(ctx.session.client('primary'))),
        },
        { check: check('NO-CLIENT', async (ctx) => ctx.session.client('restricted').client_id) },
        { check: check('LEFT-OUT', async () => 'never run'), excluded: '--only', deselected: true },
      ],
      { progress: silentProgress, version: 'test', command: 'test' },
    );
    const grades = Object.fromEntries(report.checks.map((c) => [c.id, c.grade]));
    expect(grades).toMatchObject({ 'NO-TOKEN': 'SKIP', 'NO-CLIENT': 'SKIP' });
    // --only left it out: the report does not mention it, so it is no unverified rule either.
    expect(grades).not.toHaveProperty('LEFT-OUT');
    expect(report.unverified).toEqual(['UNDECIDED', 'FORCED', 'NO-TOKEN']);
  });
});
