// A 429 says the tenant's limit was spent, which its other integrations share (SPEC.md §8 rule 1), nothing of the
// token or of permission: the checks wait it out and send again, and grade only what the server then answers.
import { describe, expect, it } from 'vitest';
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
