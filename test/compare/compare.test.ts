// harness compare's reading of two runs: grades that changed (worse or not), readings that moved beyond tolerance,
// and the runs it refuses to compare, each with why.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { judge, reportJson } from '../../core/judged.ts';
import { compareRuns } from '../../src/compare/compare.ts';
import { comparisonLine, comparisonMarkdown } from '../../src/compare/render.ts';
import { readRun } from '../../src/compare/run-docs.ts';
import type { RunDocs } from '../../src/compare/run-types.ts';
import type { RunReport } from '../../src/runner/types.ts';
import { specDigest } from '../../src/spec/digest.ts';
import { NETWORKS, simulate } from '../load/simulate.ts';
import { GENUINE_CHECKS, genuine, regraded } from './genuine.ts';

const conformanceRun = (report: RunReport, source = 'run'): RunDocs => ({
  source,
  conformance: report,
  load: [],
});

/** A load run as `harness load` writes it: the simulated summary with its grades and stamp, read back. */
const loadRun = (enforced: number): RunDocs => {
  const summary = simulate(
    { kind: 'anchored', network: NETWORKS.lan, enforced, seed: 1 },
    { scenarios: ['transactions'] },
  );
  const dir = mkdtempSync(join(tmpdir(), 'harness-compare-'));
  const stamp = { harness: { name: 'harness', version: '0.1.0' }, specDigest: specDigest() };
  writeFileSync(
    join(dir, 'load-transactions-summary.json'),
    reportJson(judge({ ...summary, generatedAt: '2026-11-27T11:00:00.000Z' }), stamp),
  );
  return readRun(dir);
};

describe('compareRuns', () => {
  const faithful = genuine();

  it('finds nothing between a run and itself', () => {
    const c = compareRuns(conformanceRun(faithful), conformanceRun(faithful));
    expect(c).toMatchObject({ changes: [], moves: [], worse: false });
    expect(comparisonLine(c)).toBe(
      `compare: 0 verdicts worse, 0 no longer verified, 0 otherwise changed, 0 readings moved; ${GENUINE_CHECKS.length} checks graded in both`,
    );
  });

  it('names a check that got worse, and says why in B', () => {
    const b = regraded('AUTH-TOKEN-SCHEMA', 'FAIL');
    const c = compareRuns(conformanceRun(faithful), conformanceRun(b));
    expect(c.worse).toBe(true);
    expect(c.changes).toEqual([
      { id: 'AUTH-TOKEN-SCHEMA', kind: 'check', a: 'PASS', b: 'FAIL', direction: 'worse', why: 'now FAIL' },
    ]);
    expect(comparisonMarkdown(c)).toContain('| worse | `AUTH-TOKEN-SCHEMA` | PASS | FAIL | now FAIL |');
  });

  it('lists a verdict that got better or a check gone, without failing', () => {
    const b = genuine(
      GENUINE_CHECKS.filter((c) => c.id !== 'LIMITER-ALGORITHM').map((c) =>
        c.id === 'LIMIT-ADMITS-RULES-SCHEDULE' ? { ...c, grade: 'PASS' as const } : c,
      ),
    );
    const c = compareRuns(conformanceRun(faithful), conformanceRun(b));
    expect(c.worse).toBe(false);
    expect(c.changes.map((x) => `${x.id} ${x.a}->${x.b}`).sort()).toEqual(
      ['LIMIT-ADMITS-RULES-SCHEDULE FAIL->PASS', 'LIMITER-ALGORITHM INFO->absent'].sort(),
    );
  });

  it.each([
    ['SKIPped', 'SKIP'],
    ['INCONCLUSIVE', 'INCONCLUSIVE'],
    ['not run', undefined],
  ] as const)('does not pass a check that FAILed in A and is %s in B: no longer verified', (_, grade) => {
    const checks = GENUINE_CHECKS.flatMap((c) =>
      c.id !== 'AUTH-TOKEN-BAD-SCOPE'
        ? [c]
        : grade === undefined
          ? []
          : [{ ...c, grade, message: 'skipped' }],
    );
    const c = compareRuns(conformanceRun(faithful), conformanceRun(genuine(checks)));
    expect(c).toMatchObject({ worse: false, unverified: true });
    expect(c.changes).toEqual([
      {
        id: 'AUTH-TOKEN-BAD-SCOPE',
        kind: 'check',
        a: 'FAIL',
        b: grade ?? 'absent',
        direction: 'unverified',
        why: grade === undefined ? 'not run in B' : 'skipped',
      },
    ]);
    expect(comparisonLine(c)).toMatch(
      /^compare: 0 verdicts worse, 1 no longer verified, 0 otherwise changed/,
    );
    expect(comparisonMarkdown(c)).toContain('## harness compare: a verdict is no longer verified');
  });

  it('lists a check PASSed in A and gone from B as no longer verified, a new FAIL in B as worse', () => {
    const gone = GENUINE_CHECKS.filter((c) => c.id !== 'AUTH-TOKEN-FORM');
    const added = { ...GENUINE_CHECKS[0]!, id: 'AUTH-TOKEN-REUSE', grade: 'FAIL' as const };
    const c = compareRuns(conformanceRun(faithful), conformanceRun(genuine([...gone, added])));
    expect(c.changes.map((x) => `${x.direction} ${x.id} ${x.a}->${x.b}`)).toEqual([
      'worse AUTH-TOKEN-REUSE absent->FAIL',
      'unverified AUTH-TOKEN-FORM PASS->absent',
    ]);
    expect(c).toMatchObject({ worse: true, unverified: true });
  });

  it.each([
    [
      'other SPEC.md data',
      { ...genuine(), specDigest: `sha256:${'1'.repeat(64)}` },
      /judged against different SPEC\.md data/,
    ],
    [
      'another major version',
      genuine(GENUINE_CHECKS, '1.0.0'),
      /harness 0\.1\.0 and .* by 1\.0\.0: another major version/,
    ],
    [
      'no digest (an older harness)',
      { ...genuine(), specDigest: undefined } as unknown as RunReport,
      /records no SPEC\.md digest/,
    ],
  ])('refuses runs with %s, saying why', (_, b, why) => {
    expect(() => compareRuns(conformanceRun(faithful, 'A'), conformanceRun(b, 'B'))).toThrow(why);
  });

  it('names a version of terminal controls visibly when it refuses another major version', () => {
    const b = genuine(GENUINE_CHECKS, '1.0.0\u001b]52;c;aGk=\u0007\u009b2J');
    expect(() => compareRuns(conformanceRun(faithful, 'A'), conformanceRun(b, 'B'))).toThrow(
      'by 1.0.0\\u001b]52;c;aGk=\\u0007\\u009b2J: another major version',
    );
  });

  it('refuses a conformance run against a load run: nothing to compare', () => {
    expect(() => compareRuns(conformanceRun(faithful, 'A'), loadRun(1))).toThrow(
      /A holds conformance and .* load: nothing to compare/,
    );
  });

  it('names a load phase that got worse and the enforced reading that moved', () => {
    const c = compareRuns(loadRun(1), loadRun(0.9));
    expect(c.worse).toBe(true);
    expect(c.changes.find((x) => x.kind === 'phase' && x.direction === 'worse')).toMatchObject({
      a: 'PASS',
      b: 'FAIL',
    });
    const moved = c.moves.find((m) => m.reading === 'enforced per window');
    expect(moved?.movedPercent).toBeLessThan(-2);
  });
});

describe('readRun', () => {
  it('names a folder with no report, and a file that is no report', () => {
    const dir = mkdtempSync(join(tmpdir(), 'harness-compare-'));
    expect(() => readRun(dir)).toThrow(/holds no conformance\.json and no load-<label>-summary\.json/);
    mkdirSync(join(dir, 'x'));
    writeFileSync(join(dir, 'x', 'conformance.json'), '{"checks": []}');
    expect(() => readRun(join(dir, 'x'))).toThrow(
      /conformance\.json: not a harness conformance report: \/\w+: missing$/,
    );
    writeFileSync(join(dir, 'bad.json'), '{');
    expect(() => readRun(join(dir, 'bad.json'))).toThrow(/bad\.json: not JSON \(/);
  });
});
