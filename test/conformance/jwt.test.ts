// The conformance suite against a reference server handing out JWTs signed with jose (tokens: 'jwt'): what most
// servers issue, and where an alteration of a signature's unused bits is no alteration at all. On virtual time
// (test/support/simulation/): the signing is real, and the clock waits for it.
import { describe, expect, it } from 'vitest';
import { runSimulated, simulateRuns } from '../support/simulation/run.ts';
import { deviations } from '../support/testbed.ts';

const RUNS = 30;

describe('conformance suite against the reference server issuing JWTs', () => {
  it('passes every check', async () => {
    const report = await runSimulated({ tokens: 'jwt' }, { seed: 3 });
    expect(deviations(report)).toEqual({});
    expect(report.counts.PASS).toBeGreaterThan(60);
  });

  it(`AUTH-BEARER-ALTERED passes with ${RUNS} tokens, each altered where it changes the signature`, async () => {
    // Its last character swapped, about one ES256 token in four was served, and the check failed a correct server.
    const reports = await simulateRuns({ tokens: 'jwt' }, { seed: 3, only: ['AUTH-BEARER-ALTERED'] }, RUNS);
    const altered = reports.map((r) => r.checks.find((c) => c.id === 'AUTH-BEARER-ALTERED')!);
    expect(altered.filter((c) => c.grade !== 'PASS').map((c) => c.message)).toEqual([]);
    expect(altered[0]!.message).toMatch(
      /^altered token \(JWT \(ES256\) with character 44 of its 86-character signature changed, so 1 of its 64 decoded bytes differ\): 401 with a Bearer challenge$/,
    );
  });

  it.each([
    ['altered-token-accepted', 'AUTH-BEARER-ALTERED'],
    ['truncated-token-accepted', 'AUTH-BEARER-TRUNCATED'],
    ['expired-token-accepted', 'AUTH-TOKEN-EXPIRY'],
  ] as const)('%s: %s fails, and nothing else does', async (fault, check) => {
    const report = await runSimulated({ tokens: 'jwt', fault }, { seed: 3, only: ['bearer'] });
    expect(deviations(report)).toEqual({ [check]: 'FAIL' });
  });
});
