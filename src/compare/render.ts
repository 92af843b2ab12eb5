// A comparison as Markdown (a PR comment, $GITHUB_STEP_SUMMARY), HTML, JSON and terminal lines, and its one-line
// summary: what got worse first, then what is no longer verified, then what got better or moved, the runs compared
// and the tolerances last. Every string from the reports (IDs, phase names, messages, grades, paths) reaches each
// sink only through that sink's escaper: `html` for HTML, mdText/mdCode for Markdown, `tty` for the terminal.
import { html, joinMarkup, trusted } from '../../core/markup.ts';
import { plural } from '../plural.ts';
import { type TerminalText, tty } from '../printable.ts';
import { STYLE } from '../report/html-style.ts';
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

/**
 * Badge and number columns as narrow as their content and never broken; the ID takes what is left, and B's message
 * runs under its row across the table, so no column is squeezed into breaking words.
 */
const COMPARE_STYLE = `table.compare{border-collapse:collapse;width:100%;margin:12px 0;background:var(--card)}
table.compare th,table.compare td{border:1px solid var(--line);padding:6px 8px;text-align:left;vertical-align:top}
table.compare td.fit,table.compare th.fit{width:1%;white-space:nowrap}table.compare td.id{overflow-wrap:break-word}
table.compare td.n{text-align:right;font-variant-numeric:tabular-nums}
table.compare tr.head-row td{border-bottom:none}table.compare td.says{border-top:none;padding:0 8px 8px 24px}
tr.worse td{background:#fdecec}tr.unverified td{background:#f3effb}
.badge.dir-worse{background:#c62828}.badge.dir-unverified{background:#6a1b9a}.badge.dir-changed{background:#607d8b}
.badge.absent{background:#fff;color:var(--muted);border:1px solid var(--line)}`;

const gradeBadge = (grade: GradeChange['a']) =>
  html`<span class="badge ${grade === 'absent' ? 'absent' : `g-${grade}`}">${grade}</span>`;

export const comparisonHtml = (c: Comparison): string => {
  const changes = c.changes.map(
    (x) =>
      html`<tr class="${x.direction} head-row"><td class="fit"><span class="badge dir-${x.direction}">${x.direction}</span></td><td class="id"><code>${x.id}</code> <span class="muted">(${x.kind})</span></td><td class="fit">${gradeBadge(x.a)}</td><td class="fit">${gradeBadge(x.b)}</td></tr>
<tr class="${x.direction}"><td class="says" colspan="4"><span class="muted">B says:</span> ${x.why}</td></tr>`,
  );
  const moves = c.moves.map(
    (m) =>
      html`<tr><td class="id"><code>${m.phase}</code></td><td class="fit">${m.reading}</td><td class="n fit">${readingText(m, m.a)}</td><td class="n fit">${readingText(m, m.b)}</td><td>${movedOf(m)}</td></tr>`,
  );
  const grade = c.worse ? 'FAIL' : c.unverified ? 'INCONCLUSIVE' : 'PASS';
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>harness compare: ${headline(c)}</title><style>${trusted(STYLE + COMPARE_STYLE)}</style></head><body><main>
<header class="card g-${grade}">
<h1>harness compare: ${headline(c)}</h1>
<p class="muted">A: <code>${c.a}</code><br>B: <code>${c.b}</code></p>
<p><b>${comparisonLine(c)}</b></p>
</header>
<h2>Grades that changed</h2>
${
  changes.length === 0
    ? html`<p>No grade changed.</p>`
    : html`<div class="table-wrap"><table class="compare"><thead><tr><th class="fit">change</th><th>check or phase</th><th class="fit">A</th><th class="fit">B</th></tr></thead><tbody>${joinMarkup(changes, '\n')}</tbody></table></div>`
}
<h2>Readings that moved</h2>
${
  moves.length === 0
    ? html`<p>No reading moved beyond its tolerance.</p>`
    : html`<div class="table-wrap"><table class="compare"><thead><tr><th>phase</th><th>reading</th><th>A</th><th>B</th><th>moved</th></tr></thead><tbody>${joinMarkup(moves, '')}</tbody></table></div>`
}
</main></body></html>
`.text;
};

export const comparisonJson = (c: Comparison): string => `${JSON.stringify(c, null, 2)}\n`;
