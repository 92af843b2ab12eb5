// A token request that fails to be answered is evidence against the check that sent it, and only against the SPEC.md
// request when it was that request: a malformed one (a JSON body SPEC.md does not ask to work) spoils nothing else.
import { describe, expect, it } from 'vitest';
import { checksThrough } from '../support/forward.ts';

describe('a token endpoint that resets only the JSON-body token request', () => {
  it('leaves every other token check, and the expiry check renewing its token later, to their own answers', {
    timeout: 30_000,
  }, async () => {
    const checks = await checksThrough(['token', 'AUTH-TOKEN-EXPIRY'], ({ method, contentType }) =>
      method === 'POST' && contentType === 'application/json' ? { reset: true } : undefined,
    );
    const json = checks['AUTH-TOKEN-JSON-BODY']!;
    // It only records (failsWith is empty): a transport error is INCONCLUSIVE, not a FAIL of the run.
    expect(json.grade).toBe('INCONCLUSIVE');
    expect(json.message).toMatch(/^the target failed to answer \(reset\)/);
    const others = Object.values(checks).filter((c) => c.id !== 'AUTH-TOKEN-JSON-BODY' && c.grade !== 'SKIP');
    expect(others.map((c) => c.id)).toContain('AUTH-TOKEN-EXPIRY');
    for (const check of others) expect(check.grade, `${check.id}: ${check.message}`).toBe('PASS');
  });
});
