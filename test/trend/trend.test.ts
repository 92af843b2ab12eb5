// harness trend's reading of a report folder and the page it writes: runs in the order they started, runs it cannot
// show left out with why, a verdict grid, and per load phase charts with both axes labelled.
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { judge, reportJson } from '../../core/judged.ts';
import type { RunReport } from '../../src/runner/types.ts';
import { specDigest } from '../../src/spec/digest.ts';
import { lineChart } from '../../src/trend/line-chart.ts';
import { readRuns } from '../../src/trend/runs.ts';
import { trendPage } from '../../src/trend/trend-page.ts';
import { genuine } from '../compare/genuine.ts';
import { NETWORKS, simulate } from '../load/simulate.ts';

const conformanceAt = (startedAt: string, digest = specDigest()): RunReport => ({
  ...genuine(),
  specDigest: digest,
  startedAt,
  finishedAt: startedAt,
});

const folderOfRuns = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'harness-trend-'));
  const put = (name: string, file: string, content: string) => {
    mkdirSync(join(dir, name), { recursive: true });
    writeFileSync(join(dir, name, file), content);
  };
  // Named out of order: the runs are ordered by when they started, not by folder name.
  put('b', 'conformance.json', JSON.stringify(conformanceAt('2026-11-27T09:00:00.000Z')));
  // The newest run FAILs a check the one before passed.
  const newest = conformanceAt('2026-11-27T10:00:00.000Z');
  const failing = newest.checks.map((c) =>
    c.id === 'AUTH-TOKEN-SCHEMA' ? { ...c, grade: 'FAIL' as const } : c,
  );
  put(
    'a',
    'conformance.json',
    JSON.stringify({ ...genuine(failing), startedAt: newest.startedAt, finishedAt: newest.finishedAt }),
  );
  put(
    'c',
    'conformance.json',
    JSON.stringify(conformanceAt('2026-11-27T08:00:00.000Z', `sha256:${'1'.repeat(64)}`)),
  );
  put('compare', 'compare.md', '# not a run');
  const summary = simulate(
    { kind: 'anchored', network: NETWORKS.lan, seed: 1 },
    { scenarios: ['transactions'] },
  );
  const stamp = { harness: { name: 'harness', version: '0.1.0' }, specDigest: specDigest() };
  put(
    'd',
    'load-transactions-summary.json',
    reportJson(judge({ ...summary, generatedAt: '2026-11-27T11:00:00.000Z' }), stamp),
  );
  symlinkSync(join(dir, 'a'), join(dir, 'latest'));
  return dir;
};

describe('readRuns', () => {
  it("orders runs by start, and leaves out (saying why) what other SPEC.md data than this harness's judged", () => {
    const dir = folderOfRuns();
    const { runs, leftOut } = readRuns(dir);
    expect(runs.map((r) => r.source.slice(dir.length + 1))).toEqual(['b', 'a', 'd']);
    expect(leftOut).toEqual([`${join(dir, 'c')}: judged against other SPEC.md data than this harness's`]);
  });

  it('leaves the genuine runs in when the newest run carries other SPEC.md data', () => {
    const dir = folderOfRuns();
    mkdirSync(join(dir, 'e'));
    const other = conformanceAt('2026-11-27T12:00:00.000Z', `sha256:${'2'.repeat(64)}`);
    writeFileSync(join(dir, 'e', 'conformance.json'), JSON.stringify(other));
    expect(readRuns(dir).runs.map((r) => r.source.slice(dir.length + 1))).toEqual(['b', 'a', 'd']);
  });

  it('leaves out replays and --only runs unless asked, saying how many and how to show them', () => {
    const dir = folderOfRuns();
    const put = (name: string, command: string) => {
      mkdirSync(join(dir, name));
      const run = { ...conformanceAt('2026-11-27T09:30:00.000Z'), command };
      writeFileSync(join(dir, name, 'conformance.json'), JSON.stringify(run));
    };
    put('replay', 'npx --no-install harness replay AUTH-TOKEN-TYPE');
    put('only', 'npx --no-install harness conformance --only token,limits --report-dir reports');
    put('onlyish', 'npx --no-install harness conformance --report-dir reports/--only-later');
    const shown = (runs: readonly { source: string }[]) => runs.map((r) => r.source.slice(dir.length + 1));
    const { runs, leftOut } = readRuns(dir);
    expect(shown(runs)).toEqual(['b', 'onlyish', 'a', 'd']);
    expect(leftOut[0]).toBe(
      '2 replay and --only runs, which grade only some checks (harness trend --include-partial shows them)',
    );
    expect(trendPage('reports', readRuns(dir))).toContain(
      '<li>2 replay and --only runs, which grade only some checks',
    );
    expect(shown(readRuns(dir, { includePartial: true }).runs)).toEqual([
      'b',
      'only',
      'onlyish',
      'replay',
      'a',
      'd',
    ]);
  });

  it('refuses the folder, naming the file, when one run is not JSON', () => {
    const dir = folderOfRuns();
    mkdirSync(join(dir, 'broken'));
    writeFileSync(join(dir, 'broken', 'conformance.json'), '{');
    expect(() => readRuns(dir)).toThrow(/broken\/conformance\.json: not JSON \(/);
  });

  it('refuses a folder with no run, naming what a run is', () => {
    expect(() => readRuns(mkdtempSync(join(tmpdir(), 'harness-trend-')))).toThrow(/no run to show/);
  });
});

describe('trendPage', () => {
  it('has a verdict per check per run, and per load phase a chart of its reading and one of its p95', () => {
    const page = trendPage('reports', readRuns(folderOfRuns()));
    expect(page).toContain('<h1>harness trend: 3 runs in reports</h1>');
    // The check whose grade changed leads the grid; those graded alike in every run are folded below it.
    const grid = page.slice(page.indexOf('Verdicts per check'), page.indexOf('Verdicts per load phase'));
    const [changed, folded] = grid.split('<details>');
    // The newest run first: the FAIL of 10:00 before the PASS of 09:00.
    expect(changed).toContain('<th class="id">run (start, UTC), newest first</th><th title=');
    expect(changed!.indexOf('>11-27 10:00:00</th>')).toBeLessThan(changed!.indexOf('>11-27 09:00:00</th>'));
    expect(changed).toMatch(
      /<td class="id">AUTH-TOKEN-SCHEMA<\/td><td class="FAIL">FAIL<\/td><td class="PASS">PASS<\/td><\/tr>/,
    );
    expect(changed).not.toContain('LIMIT-ADMITS-RULES-SCHEDULE');
    expect(folded).toMatch(/graded the same in every run \(2 FAIL, .*\)<\/summary>/);
    expect(folded).toMatch(
      /<td class="id">LIMIT-ADMITS-RULES-SCHEDULE<\/td><td class="FAIL">FAIL<\/td><td class="FAIL">FAIL<\/td><\/tr>/,
    );
    expect(page).toContain('over_transactions: limit enforced, per 1 s window');
    expect(page).toContain('over_transactions: p95 latency');
    expect(page).toContain('SPEC.md: 200 / second');
    // What is left out is said under the title, before the grids it would have widened.
    const leftOut = page.indexOf('<p class="muted">Left out:</p><ul class="left-out"><li>');
    expect(leftOut).toBeGreaterThan(0);
    expect(leftOut).toBeLessThan(page.indexOf('Verdicts per check'));
    // The check column stays in view while the runs scroll sideways.
    expect(page).toContain('th.id,td.id{position:sticky;left:0;');
  });
});

describe('lineChart', () => {
  it('draws both axes with labels, a gap where a run has no value, and the reference line', () => {
    const svg = lineChart({
      title: 't',
      yLabel: 'requests per window',
      values: [100, 110, undefined, 90, 95],
      runs: ['r1', 'r2', 'r3', 'r4', 'r5'],
      xLabel: 'run start, UTC',
      reference: { value: 120, label: 'SPEC.md: 120 / minute' },
    }).text;
    expect(svg.match(/<polyline/g)).toHaveLength(2);
    expect(svg.match(/<circle/g)).toHaveLength(4);
    expect(svg).toContain('>requests per window</text>');
    expect(svg).toContain('>run start, UTC</text>');
    for (const label of ['r1', 'r5', '>0<', '>150<']) expect(svg).toContain(label);
    expect(svg).toContain('class="reference"');
  });

  it("colours each point by its run's verdict", () => {
    const svg = lineChart({
      title: 't',
      yLabel: 'ms',
      values: [1, 2, 3],
      runs: ['r1', 'r2', 'r3'],
      xLabel: 'run',
      grades: ['PASS', 'FAIL', undefined],
    }).text;
    expect([...svg.matchAll(/<circle class="([^"]+)"/g)].map((m) => m[1])).toEqual([
      'point PASS',
      'point FAIL',
      'point',
    ]);
    expect(svg).toContain('r2: 2 (FAIL)</title>');
    const page = trendPage('reports', readRuns(folderOfRuns()));
    expect(page).toContain('svg.trend-chart .point.FAIL{fill:#c62828}');
    expect(page).toMatch(/<circle class="point (PASS|FAIL|INCONCLUSIVE)"/);
  });
});
