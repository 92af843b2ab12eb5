// `harness load --scenario transactions` through Toxiproxy at `far` (100 ms ± 30 ms each way): a faithful server
// passes with no FAIL, one enforcing 10 % less than the profile states FAILs naming it. The CI subset of the
// accuracy matrix (`npm run bench:accuracy` runs every cell): clock-aligned windows and a sliding log.
import { describe, expect, it } from 'vitest';
import type { LimiterKind } from '../../src/reference/limiter-kinds.ts';
import { startReferenceBehind } from '../../src/reference/toxiproxy.ts';
import { hasTool, needing } from '../support/tools.ts';
import { expectNoFail, measured, runLoad } from './run-load.ts';

const LIMIT = 200;

const throughFar = async (limiter: LimiterKind, enforced: number) => {
  const bed = await startReferenceBehind('far', {
    limiter,
    limits: { 'transaction-event': { count: enforced, per: 'second' } },
  });
  try {
    // The profile states the limit the run expects; the server may enforce another.
    const profile = {
      ...bed.profile,
      limits: { 'transaction-event': { count: LIMIT, per: 'second' as const } },
    };
    return await runLoad(profile, ['--scenario', 'transactions', '--duration', '4s']);
  } finally {
    await bed.close();
  }
};

describe.skipIf(!hasTool('toxiproxy'))(needing('toxiproxy', 'harness load at far'), () => {
  it.each(['aligned', 'sliding-log'] as const)(
    'passes a faithful %s limiter with no FAIL',
    {
      timeout: 180_000,
    },
    async (limiter) => {
      const run = await measured(() => throughFar(limiter, LIMIT));
      expectNoFail(run);
      if (run.status === 0) expect(run.summary.phases.reduce((n, p) => n + p.dropped, 0)).toBe(0);
    },
  );

  it.each(['aligned', 'sliding-log'] as const)(
    'FAILs a %s limiter enforcing 10 percent less, naming the limit',
    {
      timeout: 180_000,
    },
    async (limiter) => {
      const run = await measured(() => throughFar(limiter, LIMIT * 0.9));
      expect(run.status, run.stdout + run.stderr).toBe(1);
      expect(run.stdout).toMatch(/^FAIL\s+(over|knee)_transactions\s+limited below 200 \/ second: a 429/m);
    },
  );
});
