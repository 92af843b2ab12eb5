// A hostile target: every API request gets one status (a gateway answering 400 to everything, a service down with
// 500), the token endpoint still works. No check of the API may pass on that: each is INCONCLUSIVE (or SKIP, or a
// FAIL SPEC.md backs) and names the status it saw.
import { describe, expect, it } from 'vitest';
import { deviations, runAgainst } from '../support/testbed.ts';

describe.concurrent.each([400, 500])('an API that answers %i to everything', (status) => {
  it('passes no check of the API, and says what it saw', async () => {
    const [report] = await runAgainst({ apiStatus: status });
    const grades = deviations(report!);
    const passed = report!.checks.filter((c) => c.grade === 'PASS' || c.grade === 'INFO');
    expect(passed.filter((c) => !c.tags.includes('token')).map((c) => c.id)).toEqual([]);
    expect(Object.values(grades)).not.toContain('ERROR');

    const message = (id: string) => report!.checks.find((c) => c.id === id)?.message;
    // Ids come from endpoints that answer `status` too: the endpoints taking one are skipped, saying so.
    const endpoints = report!.checks.filter((c) => c.tags.includes('endpoints'));
    for (const { id, quote } of endpoints) {
      if (quote.includes('{')) expect(grades[id], id).toBe('SKIP');
      else
        expect([grades[id], message(id)], id).toEqual([
          'INCONCLUSIVE',
          expect.stringContaining(`answered ${status}`),
        ]);
    }
    for (const bucket of [
      'OBSERVABILITY',
      'RULES-SCHEDULE',
      'TRANSACTION-EVENT',
      'RULES-RERUN',
      'RULES-EXECUTE',
    ]) {
      const id = `LIMIT-ADMITS-${bucket}`;
      expect([grades[id], message(id)], id).toEqual([
        'INCONCLUSIVE',
        expect.stringMatching(
          new RegExp(`only 0 of \\d+ admitted .*\\d+× ${status} \\(only a success counts`),
        ),
      ]);
    }
    expect([grades['AUTH-TOKEN-REUSE'], message('AUTH-TOKEN-REUSE')]).toEqual([
      'INCONCLUSIVE',
      `the first call with the token got ${status}, not a success, so whether the token serves several calls cannot be told`,
    ]);
    expect(grades['AUTH-TOKEN-EXPIRY']).toBe('INCONCLUSIVE');
    // SPEC.md §5 rule 6 names 403 for a client lacking permission: any other answer breaks it, whatever the cause.
    expect(message('AUTH-FORBIDDEN')).toBe(
      `POST /api/rules/rerun with a token lacking permission got ${status}, not 403`,
    );
  });
});
