// Text from a target or a file harness reads back, made inert for a Markdown sink (a CI job page, a PR comment).
import { printable } from '../printable.ts';
import { stripIllegal } from './escape.ts';

/**
 * Put where GitHub would otherwise notify, cross-link or draw: U+200B ZERO WIDTH SPACE. GitHub finds @mentions,
 * `#N` and `owner/repo#N` references and `:emoji:` after cmark-gfm has parsed the Markdown, in the text nodes of the
 * HTML (outside `code`, `pre` and `a`), so a backslash escape is gone by then and `\@user` still notifies
 * (github/markup#1168, github/cmark-gfm#181: `\@`, `&#64;` and `&num;` all still link). A character between `@` and
 * the name breaks the match, and GitHub keeps ZWSP (the workaround both threads give). cmark-gfm's own extended
 * autolinks (`www.`, `https://`) need the literal `www.` or `://`, so the same character stops them. It is invisible
 * in a CI log and on the page, so the text still reads as it was sent.
 */
const BREAK = '\u200b';

/** What GitHub links or draws in a text node; each match gets BREAK after its first character or word. */
const GITHUB_SYNTAX: readonly [RegExp, string][] = [
  [/@(?=[A-Za-z0-9])/g, `@${BREAK}`], // @user, @org/team, and an email or user@sha autolink
  [/#(?=\d)/g, `#${BREAK}`], // #12 and owner/repo#12
  [/(?<![A-Za-z0-9])GH-(?=\d)/gi, `GH${BREAK}-`],
  [/:(?=[A-Za-z0-9_+-]+:)/g, `:${BREAK}`], // :rocket:, and each colon of :a:b:
  [/(?<![A-Za-z0-9])www\./gi, `www${BREAK}.`],
  [/(?<=https?):\/\//gi, `:${BREAK}//`],
];

/** One line, with controls, bidi marks and separators shown as `\uXXXX` as the terminal shows them, nothing illegal. */
const oneLine = (text: string): string => stripIllegal(printable(text.replace(/\s+/g, ' ').trim()));

const breakGitHubSyntax = (text: string): string =>
  GITHUB_SYNTAX.reduce((out, [pattern, replacement]) => out.replace(pattern, replacement), text);

/**
 * Text as inert Markdown on one line that still reads as plain text in a CI log: a backslash only where Markdown
 * would otherwise act, never on the `(`, `#` or `access_token` of ordinary prose. What acts there: a tag, comment or
 * autolink (`<` before a letter, `/`, `!`, `?`), a character reference (`&lt;`), a code span, emphasis (`*`, and `_`
 * not inside a word), strikethrough (`~`, one is enough in GFM), a link or image (`](`, `![`), a backslash before
 * punctuation, and in a table cell `|`; and GitHub's own mentions, references, emoji and bare links (see BREAK).
 * Nothing can start a heading, list or quote: the text never begins a line.
 */
export const mdText = (text: string, where: 'cell' | 'prose' = 'cell'): string => {
  const inert = breakGitHubSyntax(
    oneLine(text)
      .replace(/\\(?=[!-/:-@[-`{-~])/g, '\\\\')
      .replace(/<(?=[A-Za-z/!?])/g, '\\<')
      .replace(/&(?=#?[A-Za-z0-9]+;)/g, '\\&')
      .replace(/[`*~]|\](?=\()|(?<=!)\[/g, (c) => `\\${c}`)
      .replace(/(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])/g, '\\_'),
  );
  return where === 'cell' ? inert.replace(/\|/g, '\\|') : inert;
};

/**
 * Text as a code span (a name, a path, an id): shown exactly, nothing inside it acts, and GitHub links and notifies
 * nothing inside `code`. The fence is one backtick longer than the longest run inside, so no text can close it. In a
 * table cell GFM splits at `|` even inside a code span, so there it is written `\|`, which GFM turns back into `|`.
 */
export const mdCode = (text: string, where: 'cell' | 'prose' = 'cell'): string => {
  const line = oneLine(text);
  if (line === '') return '';
  const fence = '`'.repeat(Math.max(0, ...(line.match(/`+/g) ?? []).map((run) => run.length)) + 1);
  // A space each side keeps a backtick at either end from joining the fence; Markdown strips one of each.
  const padded = /^`|`$/.test(line) ? ` ${line} ` : line;
  const span = `${fence}${padded}${fence}`;
  // GFM's cell splitter pairs a backslash with the character after it, even in a code span: a pipe stays inside the
  // cell only behind an odd run of backslashes, so a run already before it is doubled first.
  return where === 'cell'
    ? span.replace(/(\\*)\|/g, (_, run: string) => `${run.replace(/\\/g, '\\\\')}\\|`)
    : span;
};
