// What a check's context keeps as its evidence: each exchange once, however often the check records it, and the
// client that sent it, whose token its reproduction asks for.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveTarget } from '../../src/profile/target.ts';
import { type RunningReferenceServer, startReferenceServer } from '../../src/reference/index.ts';
import { runConformance } from '../../src/runner/runner.ts';
import { SCALED } from '../support/testbed.ts';
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
    const report = await runConformance(target, [{ check }], {
      provenance: { version: 'test', command: 'test' },
    });
    const [result] = report.checks;
    expect(result?.grade).toBe('PASS');
    expect(result?.evidence).toHaveLength(2);
    expect(result?.evidence[0]).not.toBe(result?.evidence[1]);
  });

  it('reproduces an exchange with the token of the client that sent it', async () => {
    const target = resolveTarget(server.profile());
    const { client_id } = target.profile.clients.restricted!;
    const check = madeUpCheck('CALLS-AS-RESTRICTED', async (ctx) => {
      await ctx.call(ctx.target.endpoint('GET /api/rules/schedule'), { client: 'restricted' });
      return 'called';
    });
    const report = await runConformance(target, [{ check }], {
      provenance: { version: 'test', command: 'test' },
    });
    const [token, call] = report.checks[0]!.repro;
    expect(token).toContain(`client_id=${client_id}&client_secret=$RESTRICTED_CLIENT_SECRET&`);
    expect(call).toContain('authorization: Bearer $ACCESS_TOKEN');
  });
});
