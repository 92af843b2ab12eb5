// A 429 says the tenant's limit was spent, which its other integrations share (SPEC.md §8 rule 1), nothing of the
// token or of permission: the checks wait it out and send again, and grade only what the server then answers.
import { describe, expect, it } from 'vitest';
import { independencePair } from '../../conformance/independence.ts';
import { resolveTarget } from '../../src/profile/target.ts';
import { checksThrough } from '../support/forward.ts';

/** The first request to each API endpoint is answered 429 by the proxy, as when other traffic had spent the limit. */
const firstRefused = ['POST /api/rules/rerun', 'GET /api/rules/schedule'];

describe('a check that meets a 429 from the tenant’s other traffic', () => {
  it('sends again after it and grades the answer: the bad-token checks and AUTH-FORBIDDEN PASS', {
    timeout: 30_000,
  }, async () => {
    const checks = await checksThrough(['AUTH-BEARER-MISSING', 'AUTH-FORBIDDEN'], ({ method, path, nth }) =>
      nth === 1 && firstRefused.some((key) => key === `${method} ${path}`) ? { status: 429 } : undefined,
    );
    expect(checks['AUTH-BEARER-MISSING']?.message).toBe(
      'no Authorization header: 401 with a Bearer challenge',
    );
    expect(checks['AUTH-FORBIDDEN']?.message).toBe('POST /api/rules/rerun: 403');
    for (const id of ['AUTH-BEARER-MISSING', 'AUTH-FORBIDDEN']) {
      const check = checks[id]!;
      expect(check.grade, id).toBe('PASS');
      expect(check.evidence.map((e) => e.response?.status)).toContain(429);
    }
  });
});

describe('LIMIT-BUCKETS-INDEPENDENT', () => {
  it('is INCONCLUSIVE, not FAIL, when the other endpoint is refused once after the spend and served when asked again', {
    timeout: 30_000,
  }, async () => {
    // The pair depends on SPEC.md's limits and side_effects alone, not on where the server listens.
    const [, other] = independencePair(
      resolveTarget({
        base_url: 'http://127.0.0.1:1',
        auth_url: 'http://127.0.0.1:1/oauth2/token',
        tenant: 't',
        clients: { primary: { client_id: 'a', client_secret: 's' } },
        side_effects: 'allow',
      }),
    )!;
    // Its first request comes before the spend, its second right after it.
    const checks = await checksThrough(['LIMIT-BUCKETS-INDEPENDENT'], ({ method, path, nth }) =>
      `${method} ${path}` === other && nth === 2 ? { status: 429 } : undefined,
    );
    const check = checks['LIMIT-BUCKETS-INDEPENDENT']!;
    expect(check.grade, check.message).toBe('INCONCLUSIVE');
    expect(check.message).toMatch(
      new RegExp(`^with .* spent, ${other} got 429 once, then 200: one refusal is no proof$`),
    );
  });
});
