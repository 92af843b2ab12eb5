// The conformance suite against a reference server handing out JWTs signed with jose (tokens: 'jwt'): what most
// servers issue, and where an alteration of a signature's unused bits is no alteration at all.
import { describe, expect, it } from 'vitest';
import { deviations, runAgainst } from '../support/testbed.ts';

const RUNS = 30;

describe('conformance suite against the reference server issuing JWTs', () => {
  it('passes every check', { timeout: 120_000 }, async () => {
    const [report] = await runAgainst({ tokens: 'jwt' });
    expect(deviations(report!)).toEqual({});
    expect(report!.counts.PASS).toBeGreaterThan(60);
  });

  it(`AUTH-BEARER-ALTERED passes with ${RUNS} tokens, each altered where it changes the signature`, {
    timeout: 120_000,
  }, async () => {
    // Its last character swapped, about one ES256 token in four was served, and the check failed a correct server.
    const reports = await runAgainst({ tokens: 'jwt' }, { runs: RUNS, only: ['AUTH-BEARER-ALTERED'] });
    const altered = reports.map((r) => r.checks.find((c) => c.id === 'AUTH-BEARER-ALTERED')!);
    expect(altered.filter((c) => c.grade !== 'PASS').map((c) => c.message)).toEqual([]);
    expect(altered[0]!.message).toMatch(
      /^altered token \(JWT \(ES256\) with character 44 of its 86-character signature changed, so 1 of its 64 decoded bytes differ\): 401 with a Bearer challenge$/,
    );
  });

  // Bearer checks probe no limit window, so the three faulty servers are checked side by side.
  it.concurrent.each([
    ['altered-token-accepted', 'AUTH-BEARER-ALTERED'],
    ['truncated-token-accepted', 'AUTH-BEARER-TRUNCATED'],
    ['expired-token-accepted', 'AUTH-TOKEN-EXPIRY'],
  ] as const)('%s: %s fails, and nothing else does', async (fault, check) => {
    const [report] = await runAgainst({ tokens: 'jwt', fault }, { only: ['bearer'] });
    expect(deviations(report!)).toEqual({ [check]: 'FAIL' });
  });
});
