// One phase's requests over time as an inline SVG: admitted and 429 stacked per bar of send time, the SPEC.md limit
// per bar dashed, the phase's end dotted, axes in seconds of the run and in requests. The SVG scales to its
// container's width (viewBox, width 100 %). Pure TypeScript, no scripts, nothing fetched.

import type { PhaseResult } from './evidence.ts';
import { escapeMarkup as escapeHtml } from './markup.ts';

const WIDTH = 1200;
const HEIGHT = 270;
const PLOT = { left: 64, right: 14, top: 14, bottom: 52 } as const;
const PLOT_W = WIDTH - PLOT.left - PLOT.right;
const PLOT_H = HEIGHT - PLOT.top - PLOT.bottom;
/** Bars per chart at most: neighbouring slots are added up beyond that, so a long phase stays a small page. */
const MAX_BARS = 200;
export const COLOURS = { admitted: '#2f9e5b', limited: '#d9534f', other: '#8a6d3b' } as const;

const grouped = (values: readonly number[], size: number) =>
  Array.from({ length: Math.ceil(values.length / size) }, (_, i) =>
    values.slice(i * size, (i + 1) * size).reduce((a, b) => a + b, 0),
  );

/** A step of 1, 2 or 5 times a power of ten giving about `ticks` ticks up to `max`. */
const niceStep = (max: number, ticks: number): number => {
  const raw = max / ticks;
  const power = 10 ** Math.floor(Math.log10(raw));
  return [1, 2, 5, 10].map((m) => m * power).find((step) => step >= raw) ?? 10 * power;
};

const ticksUpTo = (from: number, to: number, count: number): number[] => {
  const step = niceStep(Math.max(to - from, 1e-9), count);
  const ticks: number[] = [];
  for (let v = Math.ceil(from / step - 1e-9) * step; v <= to + 1e-9; v += step) ticks.push(v);
  return ticks;
};

/** Up to three decimals, none trailing: 0.5, 12, 1.25. */
const label = (v: number) => String(Number(v.toFixed(3)));

export const phaseChart = (result: PhaseResult): string => {
  const { plan } = result;
  const size = Math.max(1, Math.ceil(result.slots.admitted.length / MAX_BARS));
  const admitted = grouped(result.slots.admitted, size);
  const limited = grouped(result.slots.limited, size);
  const barMs = plan.slotMs * size;
  const limitPerBar = (plan.limit.count * barMs) / plan.limit.windowMs;
  const top = Math.max(1, limitPerBar, ...admitted.map((a, i) => a + (limited[i] ?? 0))) * 1.08;
  const startS = plan.startMs / 1000;
  const endS = (plan.startMs + admitted.length * barMs) / 1000;
  const x = (seconds: number) => PLOT.left + ((seconds - startS) / (endS - startS)) * PLOT_W;
  const y = (count: number) => PLOT.top + PLOT_H - (count / top) * PLOT_H;
  const bar = PLOT_W / Math.max(admitted.length, 1);
  const bars = admitted.map((a, i) => {
    const l = limited[i] ?? 0;
    const left = (PLOT.left + i * bar).toFixed(1);
    const w = Math.max(0.5, bar * 0.85).toFixed(1);
    const at = label(startS + (i * barMs) / 1000);
    const rect = (from: number, to: number, fill: string, what: string) =>
      to > from
        ? `<rect x="${left}" y="${y(to).toFixed(1)}" width="${w}" height="${(y(from) - y(to)).toFixed(1)}" fill="${fill}"><title>${at} s: ${what}</title></rect>`
        : '';
    return (
      rect(0, a, COLOURS.admitted, `${a} admitted`) + rect(a, a + l, COLOURS.limited, `${l} answered 429`)
    );
  });
  const yTicks = ticksUpTo(0, top, 5).map(
    (v) =>
      `<line x1="${PLOT.left}" x2="${WIDTH - PLOT.right}" y1="${y(v).toFixed(1)}" y2="${y(v).toFixed(1)}" class="grid"/>` +
      `<text x="${PLOT.left - 6}" y="${(y(v) + 4).toFixed(1)}" text-anchor="end">${label(v)}</text>`,
  );
  const xTicks = ticksUpTo(startS, endS, 8).map(
    (s) =>
      `<line x1="${x(s).toFixed(1)}" x2="${x(s).toFixed(1)}" y1="${PLOT.top + PLOT_H}" y2="${PLOT.top + PLOT_H + 4}" class="axis"/>` +
      `<text x="${x(s).toFixed(1)}" y="${PLOT.top + PLOT_H + 22}" text-anchor="middle">${label(s)}</text>`,
  );
  const limitY = y(limitPerBar).toFixed(1);
  const endX = x((plan.startMs + plan.durationMs) / 1000).toFixed(1);
  const unit = `${label(barMs)} ms`;
  return `<svg class="chart" viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-label="${escapeHtml(plan.name)}: requests admitted and answered 429 per ${unit} of send time">
${yTicks.join('')}${bars.join('')}
<line x1="${PLOT.left}" x2="${WIDTH - PLOT.right}" y1="${limitY}" y2="${limitY}" class="limit"/><text x="${PLOT.left + 6}" y="${(Number(limitY) - 5).toFixed(1)}">SPEC.md limit: ${label(limitPerBar)}</text>
<line x1="${endX}" x2="${endX}" y1="${PLOT.top}" y2="${PLOT.top + PLOT_H}" class="end"/><text x="${endX}" y="${PLOT.top + 16}" dx="-4" text-anchor="end">phase ends</text>
<line x1="${PLOT.left}" x2="${PLOT.left}" y1="${PLOT.top}" y2="${PLOT.top + PLOT_H}" class="axis"/><line x1="${PLOT.left}" x2="${WIDTH - PLOT.right}" y1="${PLOT.top + PLOT_H}" y2="${PLOT.top + PLOT_H}" class="axis"/>
${xTicks.join('')}
<text x="${PLOT.left + PLOT_W / 2}" y="${HEIGHT - 6}" text-anchor="middle" class="title">send time (s since the run's start)</text>
<text transform="translate(18 ${PLOT.top + PLOT_H / 2}) rotate(-90)" text-anchor="middle" class="title">requests per ${unit}</text>
</svg>`;
};
