// --dry-run's list of what runs and what does not is the run's own: for each shape of profile, every check the run
// SKIPs by the profile's choice is listed as not run with the very reason, and every other check as run.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { allChecks } from '../../conformance/index.ts';
import { resolveTarget, type Target } from '../../src/profile/target.ts';
import { startReferenceServer } from '../../src/reference/index.ts';
import { planChecks } from '../../src/runner/plan-skips.ts';
import { runConformance } from '../../src/runner/runner.ts';
import { selectChecks } from '../../src/runner/select.ts';
import type { Profile } from '../../src/spec/index.ts';
import { printPlan } from '../../src/terminal/summary.ts';
import { SCALED } from '../support/testbed.ts';

const SHAPES: Readonly<Record<string, (profile: Profile) => Profile>> = {
  full: (profile) => profile,
  'primary client only': (profile) => ({ ...profile, clients: { primary: profile.clients.primary } }),
  'no Observability list': ({ observability: _, ...profile }) => profile,
  'no id sources': ({ ids: _, ...profile }) => profile,
  'side_effects: deny': (profile) => ({ ...profile, side_effects: 'deny' }),
};

/** What --dry-run prints, as check ID → `run` or the reason it does not. */
const dryRun = (target: Target): Map<string, string> => {
  const lines: string[] = [];
  const log = vi.spyOn(console, 'log').mockImplementation((line = '') => void lines.push(String(line)));
  try {
    printPlan(planChecks(selectChecks(allChecks(target), { slow: true }), target), target, {
      deadlineMs: 60_000,
      hide: (text) => text,
    });
  } finally {
    log.mockRestore();
  }
  const listed = new Map<string, string>();
  const notRunAt = lines.indexOf('not run:');
  const end = lines.findIndex((line) => line.startsWith('requests per endpoint'));
  for (const [i, line] of lines.slice(1, end).entries()) {
    const [, id, rest] = /^ {2}(\S+)\s+(.*)$/.exec(line) ?? [];
    if (id !== undefined) listed.set(id, notRunAt < 0 || i + 1 < notRunAt ? 'run' : rest!.trim());
  }
  const [, running, notRunning] = /: (\d+) checks run, (\d+) do not/.exec(lines[0]!) ?? [];
  expect([...listed.values()].filter((v) => v === 'run').length).toBe(Number(running));
  expect([...listed.values()].filter((v) => v !== 'run').length).toBe(Number(notRunning));
  return listed;
};

afterEach(() => vi.restoreAllMocks());

describe.concurrent('--dry-run and the run agree', () => {
  it.each(Object.entries(SHAPES))('with a profile: %s', { timeout: 180_000 }, async (_, shape) => {
    const server = await startReferenceServer(SCALED);
    try {
      const target = resolveTarget(shape(server.profile()));
      const planned = dryRun(target);
      const report = await runConformance(target, selectChecks(allChecks(target), { slow: true }), {
        provenance: { version: 'test', command: 'test' },
      });
      const unverified = new Set(report.unverified);
      const ran = new Map(
        report.checks.map((c) => [c.id, c.grade === 'SKIP' && !unverified.has(c.id) ? c.message : 'run']),
      );
      expect(ran).toEqual(planned);
    } finally {
      await server.close();
    }
  });
});

describe('the planner, on a profile no run could start', () => {
  it('ends an id that needs itself with a reason, as target.reachable ends it', () => {
    const target = resolveTarget({
      base_url: 'https://staging.example.test',
      auth_url: 'https://auth.example.test/oauth2/token',
      tenant: 'acme',
      clients: { primary: { client_id: 'a', client_secret: 's' } },
      ids: { batch_id: { from: 'GET /api/transactions/batch/status/{batch_id}', pointer: '/batch_id' } },
    });
    const planned = planChecks(selectChecks(allChecks(target), { slow: true }), target);
    expect(planned.find((s) => s.check.id === 'LIMIT-ADMITS-BATCH-STATUS')?.excluded).toBe(
      'batch_id comes from an endpoint that needs batch_id itself',
    );
    expect(planChecks(planned, target)).toEqual(planned);
  });
});
