// How the runner grades a check that ends otherwise than by its own verdict: a transport error in a check that may
// only warn is no FAIL, and a harness error's message never carries a secret.
import { describe, expect, it } from 'vitest';
import { sessionOf } from '../../src/runner/context.ts';
import type { CheckDefinition } from '../../src/runner/types.ts';
import { madeUpCheck, runOnClosedPort } from './closed-port.ts';

const SECRET = 'outcomes-test-secret-3f9a';

const runChecks = async (...checks: CheckDefinition[]) => {
  const report = await runOnClosedPort(
    checks.map((check) => ({ check })),
    SECRET,
  );
  return Object.fromEntries(report.checks.map((c) => [c.id, c]));
};

const refusedRequest: CheckDefinition['run'] = async (ctx) => {
  await sessionOf(ctx).http.send({ method: 'GET', url: `${ctx.target.profile.base_url}/`, label: 'refused' });
  return 'answered';
};

describe('a transport error', () => {
  it('FAILs a check that may FAIL, and is INCONCLUSIVE, naming it, in one that may only WARN or inform', async () => {
    const checks = await runChecks(
      madeUpCheck('MAY-FAIL', refusedRequest),
      madeUpCheck('WARN-ONLY', refusedRequest, ['WARN']),
      madeUpCheck('INFO-ONLY', refusedRequest, []),
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
      madeUpCheck('LEAKS', async (ctx) => {
        throw new Error(`bad client ${ctx.target.profile.clients.primary!.client_secret}`);
      }),
    );
    expect(checks.LEAKS?.grade).toBe('ERROR');
    expect(checks.LEAKS?.message).toMatch(/^harness error: Error: bad client \[REDACTED\]/);
    expect(checks.LEAKS?.message).not.toContain(SECRET);
  });
});
