// What a check's context keeps as its evidence: each exchange once, however often the check records it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningReferenceServer, startReferenceServer } from '../../src/reference/index.ts';
import { runConformance } from '../../src/runner/runner.ts';
import { resolveTarget } from '../../src/runner/target.ts';
import { SCALED } from '../../src/testbed/conformance.ts';
import { madeUpCheck } from './closed-port.ts';

let server: RunningReferenceServer;
beforeAll(async () => {
  server = await startReferenceServer(SCALED);
});
afterAll(() => server.close());

describe('CheckContext.record', () => {
  it('keeps an exchange recorded twice (a shared one, say) once, and two alike exchanges twice', async () => {
    const target = resolveTarget(server.profile());
    const check = madeUpCheck('RECORDS-TWICE', async (ctx) => {
      const endpoint = ctx.target.endpoint('GET /api/rules/schedule');
      const first = await ctx.call(endpoint);
      ctx.record(first, first.evidence);
      await ctx.call(endpoint);
      return 'recorded';
    });
    const report = await runConformance(target, [{ check }], { version: 'test', command: 'test' });
    const [result] = report.checks;
    expect(result?.grade).toBe('PASS');
    expect(result?.evidence).toHaveLength(2);
    expect(result?.evidence[0]).not.toBe(result?.evidence[1]);
  });
});
