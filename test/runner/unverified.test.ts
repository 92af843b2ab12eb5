// Which checks leave a rule unverified: an INCONCLUSIVE, or a SKIP the target forced (no token), but not a SKIP the
// user chose (--only, --skip, the profile's optional inputs). The CLI exits 5, no verdict, on the first kind.
import { describe, expect, it } from 'vitest';
import { inconclusive, skip, skipByChoice } from '../../src/runner/grades.ts';
import { madeUpCheck, runOnClosedPort } from './closed-port.ts';

describe('the unverified checks of a run', () => {
  it('are the INCONCLUSIVE ones and the SKIPs the target forced, not those the user chose', async () => {
    const report = await runOnClosedPort(
      [
        { check: madeUpCheck('PASSES', async () => 'holds') },
        { check: madeUpCheck('UNDECIDED', async () => inconclusive('the evidence cannot decide')) },
        { check: madeUpCheck('FORCED', async () => skip('the target gave no second id')) },
        {
          check: madeUpCheck('CHOSEN', async () =>
            skipByChoice('the profile lists no Observability endpoints'),
          ),
        },
        {
          check: madeUpCheck('NO-TOKEN', async (ctx) => ctx.token('primary')),
        },
        { check: madeUpCheck('NO-CLIENT', async (ctx) => ctx.client('restricted').client_id) },
        { check: madeUpCheck('LEFT-OUT', async () => 'never run'), excluded: '--only', deselected: true },
      ],
      'unverified-test-secret',
    );
    const grades = Object.fromEntries(report.checks.map((c) => [c.id, c.grade]));
    expect(grades).toMatchObject({ 'NO-TOKEN': 'SKIP', 'NO-CLIENT': 'SKIP' });
    // --only left it out: the report does not mention it, so it is no unverified rule either.
    expect(grades).not.toHaveProperty('LEFT-OUT');
    expect(report.unverified).toEqual(['UNDECIDED', 'FORCED', 'NO-TOKEN']);
  });
});
