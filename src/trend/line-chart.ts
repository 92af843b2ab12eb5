// A small SVG line chart with both axes labelled: one value per run, runs evenly spaced in time order, a gap where
// a run has no value, each point coloured by its run's verdict, and an optional dashed reference line (SPEC.md's limit). Static markup, no script.
// Every label (a phase's name, a run's) is interpolated through `html`, which escapes it.
import type { Grade } from '../../core/grade.ts';
import { html, joinMarkup, type Markup } from '../../core/markup.ts';
import { niceStep } from '../../core/report-chart.ts';

export interface ChartSeries {
  readonly title: string;
  readonly yLabel: string;
  /** Per run, in order; undefined where the run has no value. */
  readonly values: readonly (number | undefined)[];
  /** The x axis's label of each run, and of the axis. */
  readonly runs: readonly string[];
  readonly xLabel: string;
  readonly reference?: { readonly value: number; readonly label: string };
  /** Per run, the verdict its point is coloured by. */
  readonly grades?: readonly (Grade | undefined)[];
}

const WIDTH = 560;
const HEIGHT = 240;
const LEFT = 64;
const RIGHT = 16;
const TOP = 28;
const BOTTOM = 52;

const tickText = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(1));

export const lineChart = (series: ChartSeries): Markup => {
  const known = series.values.filter((v): v is number => v !== undefined);
  const top = Math.max(1, ...known, series.reference?.value ?? 0) * 1.1;
  const step = niceStep(top, 4);
  const yMax = Math.ceil(top / step) * step;
  const plotW = WIDTH - LEFT - RIGHT;
  const plotH = HEIGHT - TOP - BOTTOM;
  const n = series.runs.length;
  const x = (i: number) => LEFT + (n === 1 ? plotW / 2 : (i * plotW) / (n - 1));
  const y = (v: number) => TOP + plotH - (v / yMax) * plotH;
  const yTicks = Array.from({ length: Math.round(yMax / step) + 1 }, (_, i) => i * step);
  const grid = yTicks.map(
    (v) =>
      html`<line class="grid" x1="${LEFT}" x2="${WIDTH - RIGHT}" y1="${y(v)}" y2="${y(v)}"/><text x="${LEFT - 6}" y="${y(v) + 4}" text-anchor="end">${tickText(v)}</text>`,
  );
  // Six labels at most, the last always, so many runs do not write over each other; the ends anchored inward.
  const every = Math.ceil(n / 6);
  const xTicks = series.runs.map((label, i) => {
    const anchor = n > 1 && i === 0 ? 'start' : n > 1 && i === n - 1 ? 'end' : 'middle';
    const text =
      (i % every === 0 || i === n - 1) &&
      html`<text x="${x(i)}" y="${TOP + plotH + 18}" text-anchor="${anchor}">${label}</text>`;
    return html`<line class="axis" x1="${x(i)}" x2="${x(i)}" y1="${TOP + plotH}" y2="${TOP + plotH + 4}"/>${text}`;
  });
  // A gap where a run has no value: each run of consecutive values is its own line.
  const segments: string[][] = [[]];
  series.values.forEach((v, i) => {
    if (v === undefined) segments.push([]);
    else segments.at(-1)!.push(`${x(i)},${y(v)}`);
  });
  const lines = segments
    .filter((s) => s.length > 1)
    .map((s) => html`<polyline class="series" points="${s.join(' ')}"/>`);
  const dots = series.values.map(
    (v, i) =>
      v !== undefined &&
      html`<circle class="point${series.grades?.[i] === undefined ? '' : ` ${series.grades[i]}`}" cx="${x(i)}" cy="${y(v)}" r="4.5"><title>${series.runs[i]}: ${tickText(v)}${series.grades?.[i] === undefined ? '' : ` (${series.grades[i]})`}</title></circle>`,
  );
  const reference =
    series.reference !== undefined &&
    html`<line class="reference" x1="${LEFT}" x2="${WIDTH - RIGHT}" y1="${y(series.reference.value)}" y2="${y(series.reference.value)}"/><text class="reference-label" x="${WIDTH - RIGHT}" y="${y(series.reference.value) - 5}" text-anchor="end">${series.reference.label}</text>`;
  return html`<svg class="trend-chart" viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-label="${series.title}">
<text class="title" x="${LEFT}" y="16">${series.title}</text>${grid}
<line class="axis" x1="${LEFT}" x2="${LEFT}" y1="${TOP}" y2="${TOP + plotH}"/><line class="axis" x1="${LEFT}" x2="${WIDTH - RIGHT}" y1="${TOP + plotH}" y2="${TOP + plotH}"/>
<text x="14" y="${TOP + plotH / 2}" text-anchor="middle" transform="rotate(-90 14 ${TOP + plotH / 2})">${series.yLabel}</text>
<text x="${LEFT + plotW / 2}" y="${HEIGHT - 6}" text-anchor="middle">${series.xLabel}</text>${joinMarkup(xTicks, '')}${reference}${lines}${dots}</svg>`;
};
