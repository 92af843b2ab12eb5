// Text from a target or a file harness reads back, made inert for a Markdown sink (a CI job page, a PR comment).
import { stripIllegal } from './escape.ts';

/**
 * Text as inert Markdown on one line that still reads as plain text in a CI log: a backslash only where Markdown
 * would otherwise act, never on the `(`, `#` or `access_token` of ordinary prose. What acts there: a tag, comment or
 * autolink (`<` before a letter, `/`, `!`, `?`), a character reference (`&lt;`), a code span, emphasis (`*`, and `_`
 * not inside a word), strikethrough, a link or image (`](`), a backslash before punctuation, and in a table cell `|`.
 * Nothing can start a heading, list or quote: the text never begins a line.
 */
export const mdText = (text: string, where: 'cell' | 'prose' = 'cell'): string => {
  const inert = stripIllegal(text)
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/\\(?=[!-/:-@[-`{-~])/g, '\\\\')
    .replace(/<(?=[A-Za-z/!?])/g, '\\<')
    .replace(/&(?=#?[A-Za-z0-9]+;)/g, '\\&')
    .replace(/[`*]|~~|\](?=\()/g, (c) => [...c].map((one) => `\\${one}`).join(''))
    .replace(/(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])/g, '\\_');
  return where === 'cell' ? inert.replace(/\|/g, '\\|') : inert;
};
