// `harness load` against a faithful server of every limiter kind but the anchored one (load.test.ts grades that
// one), with two k6 instances, and on the shared Observability bucket. A file of its own, so it runs beside load.test.ts.
import { describe, expect, it } from 'vitest';
import { LIMITER_KINDS } from '../../src/reference/limiter-kinds.ts';
import { harnessVersion } from '../../src/version.ts';
import { against, expectNoFail, FAITHFUL, TRANSACTIONS } from './run-load.ts';

describe('harness load against every limiter', () => {
  it('holds the Observability endpoints to one shared limit, and catches separate buckets', {
    timeout: 120_000,
  }, async () => {
    const args = ['--scenario', 'observability-shared', '--duration', '4s'];
    const faithful = await against({}, args);
    expectNoFail(faithful);
    const separate = await against({ fault: 'observability-separate-buckets' }, args);
    expect(separate.status).toBe(1);
    expect(separate.stdout).toMatch(/^FAIL\s+over_observability-shared\s+more admitted than 100 \/ minute/m);
    // Shares that add up to the limit look like it round-robin (a refusal at most a few short of it, where spending
    // was uneven); one endpoint alone is refused at its share.
    const split = await against({ fault: 'observability-split' }, args);
    expect(split.status).toBe(1);
    const alone =
      /^FAIL\s+knee_observability-shared_one-endpoint\s+limited below 100 \/ minute.* with at most (\d+) requests admitted/m.exec(
        split.stdout,
      );
    expect(Number(alone?.[1])).toBeLessThan(50);
  });

  it('catches a window shorter than stated from the admits after a 429', { timeout: 120_000 }, async () => {
    const short = await against({ fault: 'limit-window-short' }, [
      '--scenario',
      'execute',
      '--duration',
      '4s',
    ]);
    expect(short.status).toBe(1);
    expect(short.stdout).toMatch(/^FAIL\s+over_execute\s+more admitted than 30 \/ minute/m);
  });

  it.each(LIMITER_KINDS.filter((kind) => kind !== 'anchored'))(
    'never FAILs a faithful %s limiter, per second or per minute',
    { timeout: 120_000 },
    async (limiter) => {
      expectNoFail(await against({ limiter }, FAITHFUL));
    },
  );

  it('two k6 instances give the verdicts one does', { timeout: 120_000 }, async () => {
    const two = await against({ limiter: 'aligned' }, [...TRANSACTIONS, '--instances', '2']);
    expectNoFail(two);
    expect(two.summary.instances).toBe(2);
    // Each instance wrote its share, saying which runner it is; only harness, which merged them, printed verdicts.
    expect(two.names).toEqual(expect.arrayContaining(['runners/runner-1.json', 'runners/runner-2.json']));
    expect(two.summary.runners?.map((r) => r.segment)).toEqual(['0:1/2', '1/2:1']);
    // Both name the harness and k6 that ran them, and one machine's clock.
    for (const runner of two.summary.runners!) {
      expect(runner).toMatchObject({
        harnessVersion: harnessVersion(),
        k6Version: expect.stringMatching(/^v2\./),
      });
      expect(runner.clock!.host).toBe(two.summary.runners![0]!.clock!.host);
    }
    expect(two.summary.startSpread).toBeUndefined();
    expect(two.stderr).not.toMatch(/^\[k6 \d\/2\] (share|PASS)/m);
  });
});
