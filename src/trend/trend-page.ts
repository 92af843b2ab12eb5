// `harness trend`'s page: the verdict of every check and load phase per run (a grid, runs in time order), then per
// load phase its enforced-limit reading against SPEC.md's limit and its p95 latency, each a chart with axes. Every
// string from the runs (IDs, grades, phase names, endpoints, folder names) is interpolated through `html`, which
// escapes it: a report's text never becomes markup.
import type { Grade } from '../../core/grade.ts';
import { GRADES, gradeRank } from '../../core/grade.ts';
import { html, joinMarkup, type Markup, trusted } from '../../core/markup.ts';
import { gradesByPhase, startOf } from '../compare/run-docs.ts';
import type { RunDocs } from '../compare/run-types.ts';
import { GRADE_COLOURS } from '../report/html-style.ts';
import { lineChart } from './line-chart.ts';
import type { TrendRuns } from './runs.ts';

/** Each point in its run's verdict colour, as the reports colour grades. */
const pointColours = GRADES.map((g) => `svg.trend-chart .point.${g}{fill:${GRADE_COLOURS[g]}}`).join('');

const STYLE = trusted(`body{font:14px/1.45 system-ui,sans-serif;margin:24px;color:#1d2330;background:#f6f7f9}
h1{font-size:20px;margin:0 0 4px}h2{font-size:16px;margin:28px 0 8px}h3{font-size:15px;margin:12px 0 4px}.muted{color:#5b6475}
.table-wrap{overflow-x:auto;max-width:100%}table{border-collapse:collapse;background:#fff}
th,td{border:1px solid #d9dde5;padding:3px 6px;text-align:center;white-space:nowrap}th.id,td.id{text-align:left;font-family:ui-monospace,monospace;font-size:13px}
th.id,td.id{position:sticky;left:0;z-index:1;background:#fff;box-shadow:1px 0 0 #d9dde5}
td.PASS{background:#e3f4e8;color:#17803d}td.FAIL,td.ERROR{background:#fdecec;color:#c0262d;font-weight:600}
td.WARN{background:#fdf4e6;color:#a15c00;font-weight:600}td.INCONCLUSIVE{background:#f3effb;color:#5b3fa0}
td.SKIP,td.INFO{background:#f1f2f5;color:#5b6475}td.none{background:#fff;color:#b8bfcc}
.charts{display:grid;grid-template-columns:repeat(auto-fit,minmax(520px,1fr));gap:12px}
details{margin:8px 0}ul.left-out{margin:0 0 8px;color:#5b6475}summary{cursor:pointer;color:#5b6475}
.phase{background:#fff;border:1px solid #d9dde5;padding:8px 10px;margin-bottom:12px}
svg.trend-chart{display:block;width:100%;height:auto;font:12px system-ui,sans-serif;fill:#1d2330}
svg.trend-chart .axis{stroke:#1d2330}svg.trend-chart .grid{stroke:#e6e9ef}svg.trend-chart .title{fill:#5b6475;font-weight:600}
svg.trend-chart .series{fill:none;stroke:#8c959f;stroke-width:2}svg.trend-chart .point{fill:#2f6fd0;stroke:#fff;stroke-width:1.5}
${pointColours}
svg.trend-chart .reference{stroke:#1d2330;stroke-dasharray:6 4}svg.trend-chart .reference-label{fill:#5b6475}
`);

/** `11-27 08:40:12`: short enough for a column head, to the second (runs a minute apart), in UTC as reports are. */
const runLabel = (run: RunDocs): string =>
  new Date(startOf(run)).toISOString().slice(5, 19).replace('T', ' ');

interface Row {
  readonly id: string;
  readonly grades: readonly (Grade | undefined)[];
}

/** Rows that were ever worse than PASS first (by their worst grade), then the rest, each in the newest run's order. */
const ordered = (rows: Row[]): Row[] => {
  const worst = (row: Row) => Math.min(...row.grades.map((g) => (g === undefined ? 99 : gradeRank(g))));
  return rows
    .map((row, i) => ({ row, i }))
    .sort((a, b) => worst(a.row) - worst(b.row) || a.i - b.i)
    .map((x) => x.row);
};

const gridRow = (row: Row): Markup =>
  html`<tr><td class="id">${row.id}</td>${row.grades.map((g) => (g === undefined ? html`<td class="none">–</td>` : html`<td class="${g}">${g}</td>`))}</tr>`;

/** Graded alike in every run: folded under the rows that changed, so what moved leads. */
const steady = (row: Row): boolean => row.grades.every((g) => g !== undefined && g === row.grades[0]);

/** The grid's columns newest first, so the latest run is in view however many there are. */
const grid = (caption: string, oldestFirst: readonly RunDocs[], rowsOldestFirst: Row[]): Markup => {
  if (oldestFirst.length === 0) return html``;
  const runs = [...oldestFirst].reverse();
  const rows = rowsOldestFirst.map((row) => ({ ...row, grades: [...row.grades].reverse() }));
  const head = html`<tr><th class="id">run (start, UTC), newest first</th>${runs.map((run) => html`<th title="${run.source}">${runLabel(run)}</th>`)}</tr>`;
  const moved = ordered(rows.filter((row) => !steady(row)));
  const same = ordered(rows.filter(steady));
  const counts = [...new Set(same.map((row) => row.grades[0]!))]
    .map((grade) => `${same.filter((row) => row.grades[0] === grade).length} ${grade}`)
    .join(', ');
  const table = (body: Row[]) =>
    html`<div class="table-wrap"><table>${head}\n${joinMarkup(body.map(gridRow), '\n')}</table></div>`;
  return html`<h2>${caption}</h2>
${moved.length === 0 ? html`<p>No grade changed between runs.</p>` : table(moved)}
${same.length > 0 && html`<details><summary>${same.length} graded the same in every run (${counts})</summary>${table(same)}</details>`}`;
};

const checkRows = (runs: readonly RunDocs[]): Row[] => {
  const graded = runs.map((run) => new Map(run.conformance!.checks.map((c) => [c.id, c.grade])));
  const ids = new Set(graded.flatMap((grades) => [...grades.keys()]));
  return [...ids].map((id) => ({ id, grades: graded.map((grades) => grades.get(id)) }));
};

/** Each load phase of a run by name: its grade, enforced reading, SPEC.md limit and p95 latency. */
const phasesOf = (run: RunDocs) =>
  new Map(
    run.load.flatMap(({ report }) => {
      const grades = gradesByPhase(report);
      return report.phases.map((result) => {
        const graded = grades.get(result.plan.name);
        return [
          result.plan.name,
          {
            grade: graded?.grade,
            enforced: graded?.enforcedPerWindow,
            plan: result.plan,
            p95: result.latencyMs?.p95Ms,
          },
        ] as const;
      });
    }),
  );

const loadSections = (runs: readonly RunDocs[]): Markup => {
  if (runs.length === 0) return html``;
  const phases = runs.map(phasesOf);
  const names = [...new Set(phases.flatMap((p) => [...p.keys()]))];
  // On one day, the time alone: a chart's ticks have room for eight characters each.
  const days = new Set(runs.map((run) => runLabel(run).slice(0, 5)));
  const oneDay = days.size === 1;
  const labels = runs.map((run) => (oneDay ? runLabel(run).slice(6) : runLabel(run).slice(0, 11)));
  const xLabel = oneDay
    ? `run start, UTC, ${new Date(startOf(runs[0]!)).toISOString().slice(0, 10)}`
    : 'run start, UTC';
  const verdicts = grid(
    'Verdicts per load phase',
    runs,
    names.map((name) => ({ id: name, grades: phases.map((p) => p.get(name)?.grade) })),
  );
  const charts = names.map((name) => {
    const plan = phases.map((p) => p.get(name)?.plan).find((p) => p !== undefined)!;
    const readings = phases.map((p) => p.get(name)?.enforced);
    const grades = phases.map((p) => p.get(name)?.grade);
    // A within phase offers less than the limit, so it reads none: no chart of nothing.
    const enforced = readings.every((v) => v === undefined)
      ? html`<p class="muted">${name} reads no enforced limit in any run (a within phase offers less than the limit).</p>`
      : lineChart({
          title: `${name}: limit enforced, per ${plan.limit.windowMs / 1000} s window`,
          yLabel: 'requests per window',
          values: readings,
          runs: labels,
          xLabel,
          reference: { value: plan.limit.count, label: `SPEC.md: ${plan.limit.count} / ${plan.limit.per}` },
          grades,
        });
    const latency = lineChart({
      title: `${name}: p95 latency`,
      yLabel: 'ms',
      values: phases.map((p) => p.get(name)?.p95),
      runs: labels,
      xLabel,
      grades,
    });
    return html`<section class="phase"><h3>${name}</h3><p class="muted">${plan.endpoints.join(', ')}</p><div class="charts">${enforced}${latency}</div></section>`;
  });
  return html`${verdicts}<h2>Load phases over time</h2><p class="muted">A gap: that run had no reading there (the phase was not run, or could not be read).</p>${joinMarkup(charts, '\n')}`;
};

export const trendPage = (dir: string, { runs, leftOut }: TrendRuns): string => {
  const conformance = runs.filter((run) => run.conformance !== undefined);
  const load = runs.filter((run) => run.load.length > 0);
  const span = `${runLabel(runs[0]!)} to ${runLabel(runs.at(-1)!)}`;
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>harness trend: ${dir}</title><style>${STYLE}</style></head><body>
<h1>harness trend: ${runs.length} runs in ${dir}</h1>
<p class="muted">${conformance.length} conformance runs and ${load.length} load runs, ${span} (UTC). The grids show the newest run first, at the left; the charts run oldest to newest, each point in its run's verdict colour. Hover a column head for its folder.</p>
${leftOut.length > 0 && html`<p class="muted">Left out:</p><ul class="left-out">${leftOut.map((why) => html`<li>${why}</li>`)}</ul>`}
${grid('Verdicts per check', conformance, conformance.length === 0 ? [] : checkRows(conformance))}
${loadSections(load)}
</body></html>
`.text;
};
