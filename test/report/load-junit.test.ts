import { describe, expect, it } from 'vitest';
import type { LoadGrade } from '../../core/verdict.ts';
import { loadSummary } from '../../src/cli/certify.ts';
import { type GradedPhase, phaseAsRun, toJUnit, toLoadJUnit } from '../../src/report/junit.ts';
import type { CheckResult } from '../../src/runner/types.ts';
import { hasTool } from '../support/tools.ts';
import { FIXTURE_CHECKS, reportOf } from './fixture.ts';
import { schemaErrors, XMLLINT_TITLE } from './junit-schema.ts';
import { all, parseXml, type XmlElement } from './xml.ts';

const T0 = Date.UTC(2026, 10, 24, 16, 0, 0);

const phase = (name: string, grade: LoadGrade, message: string, startS: number): GradedPhase => ({
  name,
  probe: name.split('_')[1]!,
  grade,
  message,
  startedAt: T0 + startS * 1000,
  durationMs: 10_000,
});

// In grade order, as `harness load` hands them over; the two probes ran side by side, each phase after a 2 s rest.
const PHASES: readonly GradedPhase[] = [
  phase('over_transactions', 'FAIL', 'admitted 520.00/s, SPEC.md allows 500.00/s (4.0 % off) <&>', 12),
  phase('knee_transactions', 'INCONCLUSIVE', '12 iterations dropped (all VUs busy)', 24),
  phase('within_schedule', 'WARN', 'opening burst of 240 above the limit', 0),
  phase('within_transactions', 'PASS', 'no 429 at 4500 admitted requests', 0),
];
const OPTIONS = {
  runMs: 36_500,
  properties: { 'harness.version': '0.1.0', 'target.base_url': 'http://127.0.0.1:8080' },
  hostname: 'ci-runner-7',
};
const children = (testcase: XmlElement | undefined) =>
  testcase?.children.map((c) => [c.name, c.attrs.type, c.attrs.message]);

describe('toLoadJUnit', () => {
  const xml = toLoadJUnit(PHASES, OPTIONS);
  const root = parseXml(xml);
  const byName = (name: string) => all(root, 'testcase').find((c) => c.attrs.name === name);

  it('totals the run as conformance does: FAIL a failure, INCONCLUSIVE an error (exit 5)', () => {
    expect(root.attrs).toEqual({
      name: 'harness load',
      tests: '4',
      failures: '1',
      errors: '1',
      time: '36.500',
    });
  });

  it('has one testsuite per probe, with when, where and how long its phases ran, and phases in time order', () => {
    const suites = all(root, 'testsuite');
    expect(suites.map((s) => s.attrs)).toEqual([
      {
        name: 'harness load: transactions',
        tests: '3',
        failures: '1',
        errors: '1',
        skipped: '0',
        time: '30.000',
        timestamp: '2026-11-24T16:00:00',
        hostname: 'ci-runner-7',
      },
      {
        name: 'harness load: schedule',
        tests: '1',
        failures: '0',
        errors: '0',
        skipped: '0',
        time: '10.000',
        timestamp: '2026-11-24T16:00:00',
        hostname: 'ci-runner-7',
      },
    ]);
    expect(all(root, 'testcase').map((c) => c.attrs.name)).toEqual([
      'within_transactions',
      'over_transactions',
      'knee_transactions',
      'within_schedule',
    ]);
    expect(suites.map((s) => s.children[0]?.children.map((p) => p.attrs.name))).toEqual([
      ['harness.version', 'target.base_url'],
      ['harness.version', 'target.base_url'],
    ]);
  });

  it('carries each grade as CI tools read it, with the message', () => {
    expect(byName('within_transactions')?.children).toEqual([]);
    expect(children(byName('over_transactions'))).toEqual([['failure', 'FAIL', PHASES[0]!.message]]);
    expect(children(byName('knee_transactions'))).toEqual([['error', 'INCONCLUSIVE', PHASES[1]!.message]]);
    expect(byName('within_schedule')?.children.map((c) => [c.name, c.text])).toEqual([
      ['system-out', `WARN: ${PHASES[2]!.message}`],
    ]);
    expect(byName('over_transactions')?.attrs.classname).toBe('load.transactions');
    const strict = parseXml(toLoadJUnit(PHASES, { ...OPTIONS, strict: true }));
    expect(children(all(strict, 'testcase').find((c) => c.attrs.name === 'within_schedule'))).toEqual([
      ['failure', 'WARN', PHASES[2]!.message],
    ]);
  });

  it('shows each grade with the element conformance.xml uses for it', () => {
    const grades: readonly LoadGrade[] = ['PASS', 'FAIL', 'WARN', 'INCONCLUSIVE'];
    for (const strict of [false, true]) {
      const load = parseXml(
        toLoadJUnit(
          grades.map((grade, i) => phase(`${grade}_p`, grade, 'why', i * 10)),
          { ...OPTIONS, strict },
        ),
      );
      const checks = grades.map((grade): CheckResult => ({ ...FIXTURE_CHECKS[0]!, id: grade, grade }));
      const conformance = parseXml(
        toJUnit({ ...reportOf(checks), unverified: ['INCONCLUSIVE'] }, { strict }),
      );
      const elements = (root: XmlElement) =>
        all(root, 'testcase').map((c) => c.children.map((e) => `${e.name} ${e.attrs.type ?? ''}`).join());
      expect(elements(load)).toEqual(elements(conformance));
    }
  });

  it('times a phase as k6 ran it: from the common start, cut where a signal stopped the run', () => {
    const plan = (name: string, startMs: number) => ({
      name,
      probe: 'transactions',
      startMs,
      durationMs: 8000,
    });
    const verdict = {
      grade: 'INCONCLUSIVE',
      message: 'interrupted (SIGTERM) before this phase ended',
    } as const;
    const asRun = [plan('within', 0), plan('over', 8000), plan('knee', 16_000)].map((p) =>
      phaseAsRun(p, verdict, T0, 10_500),
    );
    expect(asRun.map((p) => [p.startedAt - T0, p.durationMs])).toEqual([
      [0, 8000],
      [8000, 2500],
      [16_000, 0],
    ]);
    expect(phaseAsRun(plan('over', 8000), { grade: 'PASS', message: '' }, T0).durationMs).toBe(8000);
  });

  it('lets certify count the judged phases by how each grade counts, as this file totals them', () => {
    expect(loadSummary(5, PHASES)).toBe(
      'exit 5: 4 phases: 2 passed, 1 failed, 1 without a verdict, 0 skipped',
    );
    const counted = /(\d+) phases: (\d+) passed, (\d+) failed, (\d+) without a verdict/.exec(
      loadSummary(5, PHASES),
    );
    const { tests, failures, errors } = root.attrs;
    expect(counted?.slice(1)).toEqual([
      tests,
      String(Number(tests) - Number(failures) - Number(errors)),
      failures,
      errors,
    ]);
    expect(loadSummary(3, [])).toBe('exit 3, no phase results');
    expect(loadSummary(3)).toBe('exit 3, no phase results');
  });

  describe.skipIf(!hasTool('xmllint'))(XMLLINT_TITLE, () => {
    it.each([
      ['the phases', PHASES],
      ['an interrupted run', PHASES.map((p) => ({ ...p, grade: 'INCONCLUSIVE' as const, durationMs: 0 }))],
      ['hostile messages', PHASES.map((p) => ({ ...p, message: `<x>&"\u0000\u001b\ud800\ufffe` }))],
      ['no phase', []],
    ])('%s', (_name, phases) => {
      expect(schemaErrors(toLoadJUnit(phases, OPTIONS))).toBe('');
      expect(schemaErrors(toLoadJUnit(phases, { ...OPTIONS, strict: true }))).toBe('');
    });
  });
});
