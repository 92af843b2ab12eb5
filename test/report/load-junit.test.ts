import { describe, expect, it } from 'vitest';
import { type GradedPhase, toLoadJUnit } from '../../src/report/load-junit.ts';
import { all, parseXml } from './xml.ts';

const phase = (name: string, grade: GradedPhase['grade'], message: string): GradedPhase => ({
  name,
  probe: name.split('_')[1]!,
  grade,
  message,
  durationMs: 10_000,
});

const PHASES: readonly GradedPhase[] = [
  phase('within_transactions', 'PASS', 'no 429 at 4500 admitted requests'),
  phase('over_transactions', 'FAIL', 'admitted 520.00/s, SPEC.md allows 500.00/s (4.0 % off) <&>'),
  phase('knee_transactions', 'INCONCLUSIVE', '12 iterations dropped (all VUs busy)'),
  phase('within_schedule', 'WARN', 'opening burst of 240 above the limit'),
  phase('over_schedule', 'SKIP', 'side_effects: deny'),
];

describe('toLoadJUnit', () => {
  const root = parseXml(toLoadJUnit(PHASES, 42_500));

  it('totals the run: FAIL is a failure, INCONCLUSIVE and SKIP are skipped', () => {
    expect(root.attrs).toEqual({
      name: 'harness load',
      tests: '5',
      failures: '1',
      errors: '0',
      skipped: '2',
      time: '42.500',
    });
  });

  it('has one testsuite per probe and one testcase per phase', () => {
    const suites = all(root, 'testsuite');
    expect(suites.map((s) => [s.attrs.name, s.attrs.tests])).toEqual([
      ['harness load: transactions', '3'],
      ['harness load: schedule', '2'],
    ]);
    expect(all(root, 'testcase').map((c) => c.attrs.name)).toEqual(PHASES.map((p) => p.name));
  });

  it('carries each grade as CI tools read it, with the message', () => {
    const [pass, fail, inconclusive, warn, skip] = all(root, 'testcase');
    expect(pass!.children).toEqual([]);
    expect(fail!.children.map((c) => [c.name, c.attrs.type, c.attrs.message])).toEqual([
      ['failure', 'FAIL', PHASES[1]!.message],
    ]);
    expect(inconclusive!.children.map((c) => [c.name, c.attrs.message])).toEqual([
      ['skipped', `INCONCLUSIVE: ${PHASES[2]!.message}`],
    ]);
    expect(warn!.children.map((c) => [c.name, c.text])).toEqual([
      ['system-out', `WARN: ${PHASES[3]!.message}`],
    ]);
    expect(skip!.children.map((c) => c.name)).toEqual(['skipped']);
    expect(fail!.attrs.classname).toBe('load.transactions');
  });
});
