// A check's preconditions are met in order before its run starts; the first unmet one SKIPs it, by the user's choice
// when the profile leaves something out, for the target's doing when the target gave nothing to work on.
import { describe, expect, it } from 'vitest';
import { allChecks } from '../../conformance/index.ts';
import { resolveTarget } from '../../src/profile/target.ts';
import {
  check,
  needsClient,
  needsObservabilityEndpoints,
  needsProfile,
  needsToken,
  type Precondition,
} from '../../src/runner/checks.ts';
import { PLAN_ONLY_TARGET } from '../load/target.ts';
import { madeUpCheck, runOnClosedPort } from './closed-port.ts';

const ran: string[] = [];

const requiring = (id: string, ...requires: Precondition[]) =>
  check({
    ...madeUpCheck(id, async () => {
      ran.push(id);
      return 'ran';
    }),
    requires,
  });

describe('preconditions', () => {
  it('SKIP the check before it runs, saying what is missing; only a target-forced SKIP leaves the rule unverified', async () => {
    ran.length = 0;
    const report = await runOnClosedPort(
      [
        requiring('MET', needsClient('primary')),
        requiring('NO-CLIENT', needsClient('restricted')),
        requiring('NO-OBSERVABILITY', needsObservabilityEndpoints),
        requiring(
          'FIRST-UNMET',
          needsProfile(() => false, 'the profile lacks the first'),
          needsClient('other_tenant'),
        ),
        requiring('NO-TOKEN', needsClient('primary'), needsToken('primary')),
      ].map((c) => ({ check: c })),
      'preconditions-test-secret',
    );
    const outcomes = Object.fromEntries(report.checks.map((c) => [c.id, `${c.grade}: ${c.message}`]));
    expect(outcomes).toMatchObject({
      MET: 'PASS: ran',
      'NO-CLIENT': 'SKIP: the profile has no clients.restricted',
      'NO-OBSERVABILITY': 'SKIP: the profile lists no Observability endpoints',
      'FIRST-UNMET': 'SKIP: the profile lacks the first',
    });
    expect(outcomes['NO-TOKEN']).toMatch(/^SKIP: no token: see AUTH-TOKEN-FORM/);
    expect(ran).toEqual(['MET']);
    expect(report.unverified).toEqual(['NO-TOKEN']);
  });
});

describe('registration', () => {
  it('puts every check of a full run through check(), so none keeps its preconditions unmet', () => {
    const checks = allChecks(resolveTarget(PLAN_ONLY_TARGET));
    expect(checks.length).toBeGreaterThan(60);
    expect(checks.filter((c) => 'requires' in c).map((c) => c.id)).toEqual([]);
    // A spec that bypassed check() keeps `requires`, and would run without meeting them.
    const spec = { ...madeUpCheck('BYPASS', async () => 'ran'), requires: [needsClient('restricted')] };
    expect('requires' in spec).toBe(true);
    expect('requires' in check(spec)).toBe(false);
  });
});
