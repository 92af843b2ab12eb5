// SPEC.md's words as SPEC.md's renderer would show them: a quoted table row as a table row, `code` as code. Only
// this subset of Markdown occurs in quotes (src/spec/quotes.ts), and anything else stays text.
import { html, type Markup } from '../../core/markup.ts';

/** Text with `code spans` as <code>: each part escaped first, then marked up (check titles use it too). */
export const codeSpans = (text: string): Markup[] =>
  text.split(/`([^`]+)`/).map((part, i) => (i % 2 === 1 ? html`<code>${part}</code>` : html`${part}`));

const cells = (line: string): string[] =>
  line
    .trim()
    .replace(/^\|/, '')
    .replace(/\|$/, '')
    .split('|')
    .map((cell) => cell.trim());

const isTableRow = (line: string): boolean => /^\s*\|.*\|\s*$/.test(line);
const isDelimiter = (line: string): boolean => /^\s*\|(\s*:?-+:?\s*\|)+\s*$/.test(line);

export const quoteHtml = (quote: string): Markup => {
  const lines = quote.split('\n');
  if (!lines.every(isTableRow)) return html`${codeSpans(quote)}`;
  const headed = lines.length > 1 && isDelimiter(lines[1]!);
  const row = (line: string, cell: 'th' | 'td') =>
    html`<tr>${cells(line).map((c) => (cell === 'th' ? html`<th>${codeSpans(c)}</th>` : html`<td>${codeSpans(c)}</td>`))}</tr>`;
  const body = (headed ? lines.slice(2) : lines).map((line) => row(line, 'td'));
  return html`<table class="quote">${headed ? html`<thead>${row(lines[0]!, 'th')}</thead>` : ''}<tbody>${body}</tbody></table>`;
};
