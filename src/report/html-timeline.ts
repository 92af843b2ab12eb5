// A limit FAIL's proof drawn: each request of the bucket a line from its sending to its answer, one row per request
// in the order sent, coloured by its answer; the stretch the proof counted in shaded; the bound it broke marked. An
// inline SVG, so the page stays self-contained and needs no script to show it.
import { html, joinMarkup, type Markup } from '../../core/markup.ts';
import { niceStep } from '../../core/report-chart.ts';
import type { LimitTimeline, TimelineRequest } from '../runner/limit-timeline.ts';

const WIDTH = 1000;
const HEIGHT = 300;
const LEFT = 70;
const RIGHT = 16;
const TOP = 26;
const BOTTOM = 44;
const PLOT_W = WIDTH - LEFT - RIGHT;
const PLOT_H = HEIGHT - TOP - BOTTOM;

const signed = (value: number, text: string): string =>
  value > 0 ? `+${text}` : value < 0 ? `-${text}` : '0';

/** A time from the probe's first request, in the unit its scale calls for. */
export const formatOffset = (ms: number, step = Math.abs(ms)): string => {
  const size = Math.abs(ms);
  if (step >= 1000) return signed(ms, `${Number((size / 1000).toFixed(3))} s`);
  return signed(ms, `${Number(size.toFixed(step >= 1 ? 0 : 1))} ms`);
};

const ticks = (low: number, high: number, count: number): { step: number; values: number[] } => {
  const step = niceStep(Math.max(high - low, 1e-9), count);
  const values: number[] = [];
  for (let v = Math.ceil(low / step) * step; v <= high + step * 1e-9; v += step) values.push(v);
  return { step, values };
};

const kind = (r: TimelineRequest): string =>
  r.status === 429 ? 'refused' : r.status !== undefined && r.status >= 200 && r.status < 300 ? 'ok' : 'other';

const answer = (r: TimelineRequest): string => (r.status === undefined ? 'no answer' : `HTTP ${r.status}`);

const f = (n: number): string => n.toFixed(1);

export const timelineSvg = (timeline: LimitTimeline): Markup => {
  const { requests, limit } = timeline;
  const first = Math.min(timeline.from, ...requests.map((r) => r.sent));
  const last = Math.max(timeline.until, ...requests.map((r) => r.answered));
  // A margin either side, so a burst at the stretch's edge is not drawn on the axis or the frame.
  const margin = (last - first) * 0.03;
  const [low, high] = [first - margin, last + margin];
  const x = (t: number) => LEFT + ((t - low) / Math.max(high - low, 1e-9)) * PLOT_W;
  const rowH = PLOT_H / Math.max(requests.length, 1);
  const y = (row: number) => TOP + (row + 0.5) * rowH;
  const stroke = f(Math.max(1, Math.min(4, rowH * 0.8)));
  const counted = requests.flatMap((r, i) => (r.counted ? [i] : []));
  // Over: the counted admits past the bound-th are the excess the limit let through, coloured apart.
  const excess = new Set(
    timeline.claim === 'over' ? counted.filter((i) => kind(requests[i]!) === 'ok').slice(timeline.bound) : [],
  );
  const marks = requests.map((r, i) => {
    const x1 = x(r.sent);
    // At least a dash: a request answered within a millisecond on a minute-wide scale still shows.
    const x2 = Math.max(x(r.answered), x1 + 3);
    return html`<line class="req ${excess.has(i) ? 'excess' : kind(r)}${r.counted ? ' counted' : ''}" x1="${f(x1)}" x2="${f(x2)}" y1="${f(y(i))}" y2="${f(y(i))}" stroke-width="${stroke}"><title>#${i + 1}: sent ${formatOffset(r.sent)}, answered ${formatOffset(r.answered)}: ${answer(r)}${r.counted ? ' (counted)' : ''}${excess.has(i) ? ', over the limit' : ''}</title></line>`;
  });
  const refusal = requests.findIndex((r) => r.refusal === true);
  // Over: the line between the bound-th counted request and the next, so every counted row past it is the excess.
  // Under: the row of the 429 that came too soon.
  const boundRow =
    timeline.claim === 'over'
      ? (counted[timeline.bound] ?? counted.at(-1) ?? 0) - 0.5
      : refusal >= 0
        ? refusal
        : undefined;
  const boundLabel =
    timeline.claim === 'over'
      ? `bound: ${timeline.bound} admitted (${timeline.counted} were)`
      : `429 with at most ${timeline.counted} admitted before it (a limiter needs ${timeline.bound})`;
  const xTicks = ticks(low, high, 6);
  const yTicks = ticks(0, requests.length, 5).values.filter((v) => Number.isInteger(v));
  const xAxis = xTicks.values.map(
    (t) =>
      html`<line class="tick" x1="${f(x(t))}" x2="${f(x(t))}" y1="${TOP + PLOT_H}" y2="${TOP + PLOT_H + 5}"/><text x="${f(x(t))}" y="${TOP + PLOT_H + 21}" text-anchor="${x(t) > WIDTH - 40 ? 'end' : 'middle'}">${formatOffset(t, xTicks.step)}</text>`,
  );
  const yAxis = yTicks.map(
    (n) =>
      html`<line class="tick" x1="${LEFT - 5}" x2="${LEFT}" y1="${f(TOP + n * rowH)}" y2="${f(TOP + n * rowH)}"/><text x="${LEFT - 8}" y="${f(TOP + n * rowH + 4)}" text-anchor="end">${n}</text>`,
  );
  const stretchX = x(timeline.from);
  const stretchW = Math.max(x(timeline.until) - stretchX, 1);
  const bound =
    boundRow === undefined
      ? ''
      : html`<line class="bound" x1="${f(stretchX)}" x2="${f(stretchX + stretchW)}" y1="${f(y(boundRow))}" y2="${f(y(boundRow))}"/>${refusal >= 0 ? html`<circle class="refusal" cx="${f(x(requests[refusal]!.answered))}" cy="${f(y(refusal))}" r="5"/>` : ''}<text class="bound-label" x="${f(Math.min(stretchX + 6, LEFT + PLOT_W - 6))}" y="${f(Math.max(y(boundRow) - 6, TOP + 12))}" text-anchor="${stretchX + 6 > LEFT + PLOT_W / 2 ? 'end' : 'start'}">${boundLabel}</text>`;
  const window = `${limit.count} per ${formatOffset(limit.windowMs, limit.windowMs)}`.replace(/^\+/, '');
  return html`<svg class="timeline" viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-label="${requests.length} requests over time; the proof's stretch and bound (limit ${window})">
<rect class="stretch" x="${f(stretchX)}" y="${TOP}" width="${f(stretchW)}" height="${PLOT_H}"/>
<text class="stretch-label" x="${f(stretchX + stretchW / 2)}" y="${TOP - 8}" text-anchor="middle">stretch the proof counted: ${formatOffset(timeline.from)} to ${formatOffset(timeline.until)}</text>
${joinMarkup(marks, '\n')}
${bound}
<line class="axis" x1="${LEFT}" x2="${LEFT + PLOT_W}" y1="${TOP + PLOT_H}" y2="${TOP + PLOT_H}"/><line class="axis" x1="${LEFT}" x2="${LEFT}" y1="${TOP}" y2="${TOP + PLOT_H}"/>
${xAxis}${yAxis}
<text x="${LEFT + PLOT_W / 2}" y="${HEIGHT - 4}" text-anchor="middle">time from the probe's first request</text>
<text transform="translate(16 ${TOP + PLOT_H / 2}) rotate(-90)" text-anchor="middle">requests, in the order sent${timeline.shownOf === undefined ? '' : ` (every ${Math.round(timeline.shownOf / requests.length)}th of ${timeline.shownOf})`}</text>
</svg>`;
};

/** The picture with its legend and a sentence saying what it proves. */
export const timelineFigure = (timeline: LimitTimeline): Markup => {
  const { limit } = timeline;
  const window = formatOffset(limit.windowMs, limit.windowMs).replace(/^\+/, '');
  const claim =
    timeline.claim === 'over'
      ? `${timeline.counted} requests admitted in the shaded stretch, where no faithful limiter of ${limit.count} per ${window} admits more than ${timeline.bound}.`
      : `A 429 with at most ${timeline.counted} requests admitted in the window before it, where every faithful limiter of ${limit.count} per ${window} admits ${timeline.bound} before refusing.`;
  return html`<figure class="timeline">
<figcaption>${claim} Each line is one request, from when it was sent to when its answer arrived; the ones the proof counted are solid.</figcaption>
${timelineSvg(timeline)}
<div class="legend"><span><i class="sw ok"></i>admitted (2xx)</span>${timeline.claim === 'over' ? html`<span><i class="sw excess"></i>admitted over the limit</span>` : ''}<span><i class="sw refused"></i>429</span><span><i class="sw other"></i>other answer</span><span><i class="sw stretch"></i>stretch the proof counted in</span><span><i class="sw bound"></i>the bound it broke</span></div>
</figure>`;
};
