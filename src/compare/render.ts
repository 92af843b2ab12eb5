// A comparison as Markdown (a PR comment, $GITHUB_STEP_SUMMARY), HTML, JSON and terminal lines, and its one-line
// summary: what got worse first, then what is no longer verified, then what got better or moved, the runs compared
// and the tolerances last. Every string from the reports (IDs, phase names, messages, grades, paths) reaches each
// sink only through that sink's escaper: `html` for HTML, mdText/mdCode for Markdown, `tty` for the terminal.
import { html, joinMarkup, trusted } from '../../core/markup.ts';
import { plural } from '../plural.ts';
import { type TerminalText, tty } from '../printable.ts';
import { mdCode, mdText } from '../report/markdown-text.ts';
import type { Comparison, GradeChange, ReadingMove } from './compare.ts';

/** `compare: 1 verdict worse, 1 no longer verified, 0 otherwise changed, 2 readings moved; 75 checks graded in both` */
export const comparisonLine = (c: Comparison): string => {
  const count = (direction: GradeChange['direction']) =>
    c.changes.filter((x) => x.direction === direction).length;
  const both = [
    ...(c.compared.checks > 0 ? [plural(c.compared.checks, 'check')] : []),
    ...(c.compared.phases > 0 ? [plural(c.compared.phases, 'phase')] : []),
  ];
  return `compare: ${plural(count('worse'), 'verdict')} worse, ${count('unverified')} no longer verified, ${count('changed')} otherwise changed, ${plural(c.moves.length, 'reading')} moved; ${both.join(' and ') || 'nothing'} graded in both`;
};

/** What the comparison found, as its headings say it. */
const headline = (c: Comparison) =>
  c.worse ? 'a verdict got worse' : c.unverified ? 'a verdict is no longer verified' : 'no verdict got worse';
/** B's word for a change that does not pass: why it does not. */
const said = (x: GradeChange) => x.direction !== 'changed';
const number = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(2));
const readingText = (m: ReadingMove, n: number) =>
  m.reading.endsWith('latency') ? `${number(n)} ms` : number(n);
const movedOf = (m: ReadingMove) =>
  `${m.movedPercent > 0 ? '+' : ''}${m.movedPercent.toFixed(1)} % (tolerance ${m.tolerancePercent} %${m.reading === 'enforced per window' ? ' of the limit' : ''})`;

/** The lines a terminal shows: each change and move, then the summary. */
export const comparisonText = (c: Comparison): TerminalText[] => [
  ...c.changes.map(
    (x) =>
      tty`${x.direction.padEnd(10)} ${x.kind} ${x.id}: ${x.a} -> ${x.b}${said(x) ? tty`: ${x.why}` : ''}`,
  ),
  ...c.moves.map(
    (m) =>
      tty`moved      ${m.phase} ${m.reading}: ${readingText(m, m.a)} -> ${readingText(m, m.b)}, ${movedOf(m)}`,
  ),
  tty`${comparisonLine(c)}`,
];

export const comparisonMarkdown = (c: Comparison): string => {
  const lines = [`## harness compare: ${headline(c)}`, ''];
  lines.push(`A: ${mdCode(c.a, 'prose')}  `, `B: ${mdCode(c.b, 'prose')}`, '');
  if (c.changes.length > 0) {
    lines.push('| | check or phase | A | B | B says |', '|---|---|---|---|---|');
    for (const x of c.changes) {
      lines.push(`| ${x.direction} | ${mdCode(x.id)} | ${mdText(x.a)} | ${mdText(x.b)} | ${mdText(x.why)} |`);
    }
    lines.push('');
  }
  if (c.moves.length > 0) {
    lines.push('| phase | reading | A | B | moved |', '|---|---|---|---|---|');
    for (const m of c.moves) {
      lines.push(
        `| ${mdText(m.phase)} | ${m.reading} | ${readingText(m, m.a)} | ${readingText(m, m.b)} | ${movedOf(m)} |`,
      );
    }
    lines.push('');
  }
  lines.push(comparisonLine(c), '');
  return lines.join('\n');
};

const STYLE = trusted(
  'body{font:15px/1.5 system-ui,sans-serif;max-width:70rem;margin:2rem auto;padding:0 1rem;color:#1d2330}' +
    'table{border-collapse:collapse;width:100%;margin:1rem 0}th,td{border:1px solid #d9dde5;padding:4px 8px;text-align:left;vertical-align:top}' +
    'tr.worse td{background:#fdecec}tr.unverified td{background:#fdf4e6}td{overflow-wrap:anywhere}.muted{color:#5b6475}code{font-size:14px}',
);

export const comparisonHtml = (c: Comparison): string => {
  const changes = c.changes.map(
    (x) =>
      html`<tr class="${x.direction}"><td>${x.direction}</td><td><code>${x.id}</code> (${x.kind})</td><td>${x.a}</td><td>${x.b}</td><td>${x.why}</td></tr>`,
  );
  const moves = c.moves.map(
    (m) =>
      html`<tr><td>${m.phase}</td><td>${m.reading}</td><td>${readingText(m, m.a)}</td><td>${readingText(m, m.b)}</td><td>${movedOf(m)}</td></tr>`,
  );
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>harness compare</title><style>${STYLE}</style></head><body>
<h1>harness compare: ${headline(c)}</h1>
<p class="muted">A: <code>${c.a}</code><br>B: <code>${c.b}</code></p>
${
  changes.length === 0
    ? html`<p>No grade changed.</p>`
    : html`<table><tr><th></th><th>check or phase</th><th>A</th><th>B</th><th>B says</th></tr>${joinMarkup(changes, '')}</table>`
}
${
  moves.length === 0
    ? html`<p>No reading moved beyond its tolerance.</p>`
    : html`<table><tr><th>phase</th><th>reading</th><th>A</th><th>B</th><th>moved</th></tr>${joinMarkup(moves, '')}</table>`
}
<p><b>${comparisonLine(c)}</b></p>
</body></html>
`.text;
};

export const comparisonJson = (c: Comparison): string => `${JSON.stringify(c, null, 2)}\n`;
