// Every sink harness writes untrusted text into, walked with every hostile string: HTML and XML get no live markup and
// no illegal character, Markdown no markup, table break, mention, reference, emoji or link, the terminal no control.
import { describe, expect, it } from 'vitest';
import { escapeMarkup, html } from '../../core/markup.ts';
import { printable, tty } from '../../src/printable.ts';
import { escapeAttr, escapeText } from '../../src/report/escape.ts';
import { mdCode, mdText } from '../../src/report/markdown-text.ts';
import { HOSTILE_STRINGS } from '../support/hostile-strings.ts';
import { seenOnTerminal } from '../support/xterm.ts';

/** Controls but tab/LF/CR, DEL, C1, lone surrogates, U+FFFE/U+FFFF: what XML 1.0 and HTML parsers refuse. */
const ILLEGAL_IN_MARKUP = /[^\t\n\r\x20-\x7E\xA0-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;
/** What a terminal or a viewer acts on: controls, bidi marks, overrides and isolates, line separators. */
const ACTS_ON_TERMINAL = /[\p{Cc}\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/u;

/** Places `pattern` matches with an even run of backslashes before it: Markdown acts there. */
const unescaped = (text: string, pattern: RegExp): string[] =>
  [...text.matchAll(new RegExp(pattern.source, 'g'))]
    .filter((m) => (text.slice(0, m.index).match(/\\*$/)?.[0].length ?? 0) % 2 === 0)
    .map((m) => m[0]);

/** GitHub's syntax, found after Markdown in text nodes, where a backslash does not stop it. */
const GITHUB_ACTS_ON = [
  /@[A-Za-z0-9]/, // @user, @org/team
  /#\d/, // #1, owner/repo#1
  /\bGH-\d/i,
  /:[A-Za-z0-9_+-]+:/, // :rocket:
  /\bwww\./i,
  /https?:\/\//i,
];

describe.each(HOSTILE_STRINGS)('$name', ({ text }) => {
  it('HTML: escaped, no tag, no attribute break-out, nothing illegal', () => {
    for (const out of [escapeMarkup(text), html`<td title="${text}">${text}</td>`.text.slice(11, -5)]) {
      expect(out.replace('">', '')).not.toMatch(/[<>"']/);
      expect(out).not.toMatch(ILLEGAL_IN_MARKUP);
    }
  });

  it('XML: escaped in text and attributes, nothing XML 1.0 forbids, no raw tab or newline in an attribute', () => {
    expect(escapeText(text)).not.toMatch(/[<>"']/);
    expect(escapeText(text)).not.toMatch(ILLEGAL_IN_MARKUP);
    expect(escapeAttr(text)).not.toMatch(/[<>"'\t\n\r]/);
    expect(escapeAttr(text)).not.toMatch(ILLEGAL_IN_MARKUP);
  });

  it.each(['cell', 'prose'] as const)(
    'Markdown (%s): one inert line, no table break, nothing GitHub links',
    (where) => {
      const out = mdText(text, where);
      expect(out).not.toMatch(/[\r\n]/);
      expect(out).not.toMatch(ACTS_ON_TERMINAL);
      expect(out).not.toMatch(ILLEGAL_IN_MARKUP);
      // Tags, autolinks, comments; entities; code spans, emphasis, strikethrough; links and images.
      expect(unescaped(out, /<[A-Za-z/!?]/)).toEqual([]);
      expect(unescaped(out, /&#?[A-Za-z0-9]+;/)).toEqual([]);
      expect(unescaped(out, /[`*~]/)).toEqual([]);
      expect(unescaped(out, /\]\(/)).toEqual([]);
      expect(unescaped(out, /!\[/)).toEqual([]);
      if (where === 'cell') expect(unescaped(out, /\|/)).toEqual([]);
      for (const pattern of GITHUB_ACTS_ON) expect(out).not.toMatch(pattern);
    },
  );

  it('Markdown code span: nothing inside closes it or breaks the table cell', () => {
    const out = mdCode(text);
    const fence = out.match(/^`+/)?.[0] ?? '';
    expect(out.endsWith(fence)).toBe(true);
    const inside = out.slice(fence.length, -fence.length);
    expect(inside.match(/`+/g)?.some((run) => run.length === fence.length) ?? false).toBe(false);
    expect(unescaped(out, /\|/)).toEqual([]);
    expect(out).not.toMatch(/[\r\n]/);
    expect(out).not.toMatch(ACTS_ON_TERMINAL);
  });

  it('terminal: no control, bidi mark or separator, and the line after it still there, visible', async () => {
    expect(printable(text)).not.toMatch(ACTS_ON_TERMINAL);
    const line = tty`message: ${text}`.text;
    expect(line).not.toMatch(ACTS_ON_TERMINAL);
    const screen = (await seenOnTerminal(`${line}\nsummary: 1 check: 1 FAIL\n`)).filter((l) => l.text !== '');
    expect(screen.map((l) => l.text)).toEqual([
      expect.stringMatching(/^message: /),
      'summary: 1 check: 1 FAIL',
    ]);
    expect(screen.every((l) => !l.hidden)).toBe(true);
  });
});
