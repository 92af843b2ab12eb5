// A load summary judged once (judged.ts): what judge() hands every renderer, the order the reports list its phases in,
// and the JSON written from it.
import { describe, expect, it } from 'vitest';
import { gradeRank } from '../../core/grade.ts';
import { byGrade, judge, reportJson } from '../../core/judged.ts';
import { judgeAll } from '../../core/verdict.ts';
import { NETWORKS, simulate } from '../load/simulate.ts';

// A limiter enforcing 1.5 times the limit, in two probes: over phases FAIL, within phases PASS.
const summary = simulate(
  { kind: 'aligned', network: NETWORKS.lan, enforced: 1.5 },
  { scenarios: ['transactions', 'execute'] },
);
const judged = judge(summary);

describe('a judged load summary', () => {
  it("pairs every phase with its verdict, in the summary's order", () => {
    expect(judged.summary).toBe(summary);
    expect(judged.phases.map((p) => p.result)).toEqual(summary.phases);
    expect(judged.phases.map((p) => p.verdict)).toEqual(judgeAll(summary));
    expect(judged.phases.map((p) => p.verdict.grade)).toEqual(expect.arrayContaining(['FAIL', 'PASS']));
  });

  it('lists failures first, keeping the plan order within a grade, and leaves the judged order as it was', () => {
    const listed = byGrade(judged);
    const ranks = listed.map((p) => gradeRank(p.verdict.grade));
    expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
    const order = (phases: typeof listed, grade: string) =>
      phases.filter((p) => p.verdict.grade === grade).map((p) => p.result.plan.name);
    for (const grade of new Set(listed.map((p) => p.verdict.grade)))
      expect(order(listed, grade)).toEqual(order([...judged.phases], grade));
    expect(judged.phases.map((p) => p.result)).toEqual(summary.phases);
  });

  it('writes the stamp, the evidence, then every grade as byGrade lists them', () => {
    const written = JSON.parse(reportJson(judged, { specDigest: 'd' }));
    expect(Object.keys(written)[0]).toBe('specDigest');
    expect(written.phases).toHaveLength(summary.phases.length);
    expect(written.grades).toEqual(
      JSON.parse(JSON.stringify(byGrade(judged).map((p) => ({ phase: p.result.plan.name, ...p.verdict })))),
    );
  });
});
