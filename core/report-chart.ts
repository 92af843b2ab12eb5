// One phase's requests over time as an inline SVG, per window as SPEC.md states its limits: for each bar of send
// time, the requests sent in the window before it (admitted and 429 stacked), beside the SPEC.md limit per window
// and the reading the verdict took. A faithful limiter's admits run along the limit, whatever its kind; per bar, its
// bursts at window starts stood twice as high as a per-bar share of the limit, and a PASS looked like a breach. The
// phase's end is dotted; axes in seconds of the run and in requests. The SVG scales to its container's width
// (viewBox, width 100 %). Pure TypeScript, no scripts, nothing fetched.

import type { PhaseResult } from './evidence.ts';
import { escapeMarkup as escapeHtml } from './markup.ts';
import type { ProofSpan } from './proofs.ts';

const WIDTH = 1200;
const HEIGHT = 290;
// Room at the left for the axis title beside a four-digit tick ("1000") at the larger text of a narrow page.
const PLOT = { left: 96, right: 14, top: 14, bottom: 52 } as const;
const PLOT_W = WIDTH - PLOT.left - PLOT.right;
const PLOT_H = HEIGHT - PLOT.top - PLOT.bottom;
/** Bars per chart at most: neighbouring slots are added up beyond that, so a long phase stays a small page. */
const MAX_BARS = 200;
export const COLOURS = { admitted: '#2f9e5b', limited: '#d9534f', other: '#8a6d3b' } as const;

/** For each slot, the sum over the `width` slots ending with it: what was sent in the window before. */
const rolling = (values: readonly number[], width: number): number[] => {
  let sum = 0;
  return values.map((value, i) => {
    sum += value - (i >= width ? values[i - width]! : 0);
    return sum;
  });
};

/** Every `size`-th value, the last slot of each bar: a rolling sum needs no adding up. */
const atBarEnds = (values: readonly number[], size: number) =>
  Array.from(
    { length: Math.ceil(values.length / size) },
    (_, i) => values[Math.min(values.length, (i + 1) * size) - 1]!,
  );

/** A step of 1, 2 or 5 times a power of ten giving about `ticks` ticks up to `max` (every chart's axes use it). */
export const niceStep = (max: number, ticks: number): number => {
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

/**
 * A FAIL's proof: its span shaded behind the bars, and over them the 429 it rests on as a line labelled just under
 * the edge's line (whose label holds the top left), on the side with room, so that the page shows which request the
 * message's arithmetic starts from.
 */
const markProof = (
  proof: ProofSpan,
  {
    x,
    startS,
    endS,
    labelY,
  }: { x: (seconds: number) => number; startS: number; endS: number; labelY: number },
): { behind: string; over: string } => {
  const within = (ms: number) => Math.min(endS, Math.max(startS, ms / 1000));
  const [from, to] = [x(within(proof.fromMs)), x(within(proof.toMs))];
  const band = `<rect x="${from.toFixed(1)}" y="${PLOT.top}" width="${Math.max(1, to - from).toFixed(1)}" height="${PLOT_H}" class="proof-span"><title>the requests the FAIL's proof counts: ${label(proof.fromMs / 1000)} s to ${label(proof.toMs / 1000)} s</title></rect>`;
  if (proof.refusalMs === undefined) {
    return {
      behind: band,
      over: `<text x="${((from + to) / 2).toFixed(1)}" y="${labelY.toFixed(1)}" text-anchor="middle" class="label proof">the span that proves the FAIL</text>`,
    };
  }
  const at = x(within(proof.refusalMs));
  const leftHalf = at < PLOT.left + PLOT_W / 2;
  return {
    behind: band,
    over: `<line x1="${at.toFixed(1)}" x2="${at.toFixed(1)}" y1="${PLOT.top}" y2="${PLOT.top + PLOT_H}" class="proof"/><text x="${at.toFixed(1)}" y="${labelY.toFixed(1)}" dx="${leftHalf ? 5 : -5}" text-anchor="${leftHalf ? 'start' : 'end'}" class="label proof">the 429 that proves the FAIL (sent at ${label(proof.refusalMs / 1000)} s)</text>`,
  };
};

/**
 * `reading`: the limit per window the verdict read, drawn beside SPEC.md's where there is one; `proof`: where a FAIL's
 * proof lies, shaded, with the 429 it rests on marked.
 */
export const phaseChart = (result: PhaseResult, reading?: number, proof?: ProofSpan): string => {
  const { plan } = result;
  const size = Math.max(1, Math.ceil(result.slots.admitted.length / MAX_BARS));
  const perWindow = Math.max(1, Math.round(plan.limit.windowMs / plan.slotMs));
  const admitted = atBarEnds(rolling(result.slots.admitted, perWindow), size);
  const limited = atBarEnds(rolling(result.slots.limited, perWindow), size);
  const barMs = plan.slotMs * size;
  const { count } = plan.limit;
  // Where a window's span meets a fixed window's edge or a full token bucket, a faithful limiter admits up to twice
  // the limit in it (a phase's first window, mostly): drawn, so that such a bar reads as allowed.
  const edge = 2 * count;
  const top = Math.max(1, edge, reading ?? 0, ...admitted.map((a, i) => a + (limited[i] ?? 0))) * 1.08;
  const startS = plan.startMs / 1000;
  const endS = (plan.startMs + admitted.length * barMs) / 1000;
  const x = (seconds: number) => PLOT.left + ((seconds - startS) / (endS - startS)) * PLOT_W;
  const y = (value: number) => PLOT.top + PLOT_H - (value / top) * PLOT_H;
  const bar = PLOT_W / Math.max(admitted.length, 1);
  const window = `${label(plan.limit.windowMs / 1000)} s`;
  const bars = admitted.map((a, i) => {
    const l = limited[i] ?? 0;
    const left = (PLOT.left + i * bar).toFixed(1);
    const w = Math.max(0.5, bar * 0.85).toFixed(1);
    const at = label(startS + ((i + 1) * barMs) / 1000);
    const rect = (from: number, to: number, fill: string, what: string) =>
      to > from
        ? `<rect x="${left}" y="${y(to).toFixed(1)}" width="${w}" height="${(y(from) - y(to)).toFixed(1)}" fill="${fill}"><title>${window} up to ${at} s: ${what}</title></rect>`
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
  // Each line's label in a place of its own, so that none sits on another: the edge's at the left (above the bars
  // of a phase's start), the limit's at the right, the reading's in the middle, below its line when under the limit.
  const level = (
    value: number,
    style: string,
    text: string,
    place: 'left' | 'middle' | 'right',
    below = false,
  ) => {
    const at = y(value);
    const x = { left: PLOT.left + 6, middle: PLOT.left + PLOT_W / 2, right: WIDTH - PLOT.right - 6 }[place];
    const anchor = { left: 'start', middle: 'middle', right: 'end' }[place];
    return `<line x1="${PLOT.left}" x2="${WIDTH - PLOT.right}" y1="${at.toFixed(1)}" y2="${at.toFixed(1)}" class="${style}"/><text x="${x.toFixed(1)}" y="${(below ? at + 16 : at - 5).toFixed(1)}" text-anchor="${anchor}" class="label">${text}</text>`;
  };
  const readingLine =
    reading === undefined || Math.abs(reading - count) < count / 100
      ? ''
      : level(
          reading,
          'reading',
          `read: ${label(Math.round(reading * 100) / 100)} per ${window}`,
          'middle',
          reading < count,
        );
  const endX = x((plan.startMs + plan.durationMs) / 1000).toFixed(1);
  const proofMark =
    proof === undefined
      ? { behind: '', over: '' }
      : markProof(proof, { x, startS, endS, labelY: y(edge) + 20 });
  return `<svg class="chart" viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-label="${escapeHtml(plan.name)}: requests admitted and answered 429 in the ${window} before each moment of send time">
${proofMark.behind}${yTicks.join('')}${bars.join('')}${proofMark.over}
${level(edge, 'edge', `${edge}: the most a faithful fixed window or token bucket admits across an edge`, 'left')}${level(count, 'limit', `SPEC.md limit: ${count} per ${window}`, 'right')}${readingLine}
<line x1="${endX}" x2="${endX}" y1="${PLOT.top}" y2="${PLOT.top + PLOT_H}" class="end"/><text x="${endX}" y="${PLOT.top + PLOT_H - 6}" dx="-4" text-anchor="end" class="label">phase ends</text>
<line x1="${PLOT.left}" x2="${PLOT.left}" y1="${PLOT.top}" y2="${PLOT.top + PLOT_H}" class="axis"/><line x1="${PLOT.left}" x2="${WIDTH - PLOT.right}" y1="${PLOT.top + PLOT_H}" y2="${PLOT.top + PLOT_H}" class="axis"/>
${xTicks.join('')}
<text x="${PLOT.left + PLOT_W / 2}" y="${HEIGHT - 6}" text-anchor="middle" class="title">send time (s since the run's start)</text>
<text transform="translate(20 ${PLOT.top + PLOT_H / 2}) rotate(-90)" text-anchor="middle" class="title">sent in the ${window} before</text>
</svg>`;
};
