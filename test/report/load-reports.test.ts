// Load's reporters, as `harness load` and `harness load merge` call them: the files each writes from a judged summary,
// the same bytes as the renderers they wrap, and the lines the terminal shows.
import { mkdtemp, readdir, readFile, readlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gradeRank } from '../../core/grade.ts';
import { judge, reportJson } from '../../core/judged.ts';
import { summaryHtml } from '../../core/report-html.ts';
import { judgeAll } from '../../core/verdict.ts';
import { toLoadJUnit } from '../../src/report/junit.ts';
import { judgedRun, phaseCounts, writeLoadReports } from '../../src/report/load-reports.ts';
import { specDigest } from '../../src/spec/digest.ts';
import { gradePainter } from '../../src/terminal/colour.ts';
import { loadSummaryLines } from '../../src/terminal/load-summary.ts';
import { harnessVersion } from '../../src/version.ts';
import { NETWORKS, simulate } from '../load/simulate.ts';

// A limiter enforcing 1.5 times the limit: the over and knee phases FAIL, the within phase PASSes.
const summary = simulate(
  { kind: 'aligned', network: NETWORKS.lan, enforced: 1.5 },
  { scenarios: ['transactions'] },
);
const T0 = Date.UTC(2026, 10, 24, 16, 0, 0);
const OPTIONS = {
  label: 'transactions',
  runMs: 12_000,
  properties: { 'harness.version': '0.1.0' },
  strict: false,
  hostname: 'ci-runner-7',
};
const judged = judge(summary);
const run = judgedRun(judged, T0, OPTIONS);

const runDir = async () => {
  const root = await mkdtemp(join(tmpdir(), 'harness-load-reports-'));
  return join(root, 'run');
};

describe('load reporters', () => {
  it('grade every phase as the verdicts do, failures first, timed from the common start', () => {
    const grades = judgeAll(summary).map((v) => v.grade);
    expect(run.phases.map((p) => p.grade)).toEqual([...grades].sort((a, b) => gradeRank(a) - gradeRank(b)));
    expect(run.phases[0]?.grade).toBe('FAIL');
    const within = run.phases.find((p) => p.name === 'within_transactions')!;
    const plan = summary.phases.find((p) => p.plan.name === 'within_transactions')!.plan;
    expect(within.startedAt - T0).toBe(plan.startMs);
  });

  it("write the summary's JSON and HTML beside the JUnit, and point latest at it", async () => {
    const dir = await runDir();
    const written = await writeLoadReports(dir, run, ['load-transactions.html', 'runners/runner-1.json']);
    expect(written.files.map((f) => basename(f))).toEqual([
      'load-transactions-summary.json',
      'load-transactions-summary.html',
      'load-transactions.xml',
      'index.html',
    ]);
    // The page to open first: the verdict page, k6's dashboard, then the other reports and k6's files.
    const index = await readFile(join(dir, 'index.html'), 'utf8');
    expect([...index.matchAll(/<li[^>]*><a href="([^"]+)">/g)].map((m) => m[1])).toEqual([
      'load-transactions-summary.html',
      'load-transactions.html',
      'load-transactions.xml',
      'load-transactions-summary.json',
      'runners/runner-1.json',
    ]);
    // Stamped with who wrote it and the SPEC.md data it was judged against, for harness compare.
    const stamp = { harness: { name: 'harness', version: harnessVersion() }, specDigest: specDigest() };
    expect(await readFile(join(dir, 'load-transactions-summary.json'), 'utf8')).toBe(
      reportJson(judged, stamp),
    );
    expect(await readFile(join(dir, 'load-transactions-summary.html'), 'utf8')).toBe(summaryHtml(judged));
    expect(await readFile(join(dir, 'load-transactions.xml'), 'utf8')).toBe(toLoadJUnit(run.phases, OPTIONS));
    expect(await readlink(join(dir, '..', 'latest'))).toBe('run');
  });

  it('show the verdicts they are handed and judge nothing again: a verdict changed after judging reaches every output', async () => {
    const within = judged.phases.findIndex((p) => p.result.plan.name === 'within_transactions');
    // Judged again, the evidence would give this phase its PASS back.
    expect(judged.phases[within]?.verdict.grade).toBe('PASS');
    const message = 'handed down, not judged here';
    const handed = {
      ...judged,
      phases: judged.phases.map((p, i) =>
        i === within ? { ...p, verdict: { grade: 'INCONCLUSIVE', message, notes: [] } as const } : p,
      ),
    };
    const dir = await runDir();
    const handedRun = judgedRun(handed, T0, OPTIONS);
    await writeLoadReports(dir, handedRun);
    const json = JSON.parse(await readFile(join(dir, 'load-transactions-summary.json'), 'utf8'));
    expect(json.grades).toContainEqual({
      phase: 'within_transactions',
      grade: 'INCONCLUSIVE',
      message,
      notes: [],
    });
    const html = await readFile(join(dir, 'load-transactions-summary.html'), 'utf8');
    expect(html).toContain(`<span class="INCONCLUSIVE">INCONCLUSIVE</span>: ${message}</td>`);
    const junit = await readFile(join(dir, 'load-transactions.xml'), 'utf8');
    expect(junit).toContain(`<error message="${message}" type="INCONCLUSIVE">`);
    expect(await readFile(join(dir, 'index.html'), 'utf8')).toContain(message);
    const lines = loadSummaryLines(handedRun, [], gradePainter({ isTTY: false })).map((line) => line.text);
    expect(lines).toContain(`${'INCONCLUSIVE'.padEnd(12)} ${'within_transactions'.padEnd(34)} ${message}`);
  });

  it('write only the JUnit where no phase has a result', async () => {
    const dir = await runDir();
    const { judged: _, ...unjudged } = run;
    await writeLoadReports(dir, unjudged);
    expect(await readdir(dir)).toEqual(['load-transactions.xml']);
  });

  it('print a line per phase, the reports folder, then the counts naming what failed', () => {
    const plainText = gradePainter({ isTTY: false });
    const lines = loadSummaryLines(run, ['/r/a.xml', '/r/b.html'], plainText).map((line) => line.text);
    expect(lines.slice(0, -2)).toEqual(
      run.phases.map((p) => `${p.grade.padEnd(12)} ${p.name.padEnd(34)} ${p.message}`),
    );
    expect(lines.at(-2)).toBe('reports: /r/ (a.xml, b.html)');
    expect(loadSummaryLines(run, ['/r/a.xml', '/r/index.html'], plainText).at(-2)?.text).toBe(
      'reports: /r/ (open index.html)',
    );
    const failed = run.phases.filter((p) => p.grade === 'FAIL').map((p) => p.name);
    expect(lines.at(-1)).toBe(
      `summary: 3 phases: ${failed.length} FAIL, ${3 - failed.length} PASS; failed: ${failed.join(', ')}`,
    );
    expect(phaseCounts([{ name: 'over_x', grade: 'INCONCLUSIVE' }])).toBe('summary: 1 phase: 1 INCONCLUSIVE');
  });

  it('colour each grade as conformance colours its grades, at a terminal', () => {
    const lines = loadSummaryLines(run, [], gradePainter({ isTTY: true }, {})).map((line) => line.text);
    const failed = run.phases.filter((p) => p.grade === 'FAIL');
    expect(failed.length).toBeGreaterThan(0);
    for (const p of run.phases) {
      const colour = p.grade === 'FAIL' ? '\u001b[31m' : '\u001b[32m';
      expect(lines).toContain(
        `${colour}${p.grade}\u001b[39m${' '.repeat(12 - p.grade.length)} ${p.name.padEnd(34)} ${p.message}`,
      );
    }
    expect(lines.at(-1)).toContain(`\u001b[31m${failed.length} FAIL\u001b[39m`);
  });
});
