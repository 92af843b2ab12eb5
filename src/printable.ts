// Text from a target or a file harness did not write (a header value, a check message, a name in an archive, a field
// of a summary) put on a terminal: a control character there can move the cursor, clear the screen and scrollback,
// hide the lines after it (SGR 8) or write the clipboard (OSC 52), and a bidirectional override (U+202E) can show
// `txt.exe` as `exe.txt`, so the reader sees something other than the bytes. undici refuses ESC in a header value
// but passes the bytes 0x80-0x9F as U+0080-U+009F, and a terminal such as xterm.js (VS Code's) reads U+009B as CSI.
import { stripVTControlCharacters } from 'node:util';
import { type TableOptions, table } from './text-table.ts';

/**
 * C0 and C1 controls and DEL; the bidirectional marks, embeddings, overrides and isolates (Unicode's
 * Bidi_Control); the line and paragraph separators, which some viewers break lines at.
 */
const UNPRINTABLE = /[\p{Cc}\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/gu;

/** `text` with each such character written as its `\uXXXX` escape, everything else as it is. */
export const printable = (text: string): string =>
  text.replace(UNPRINTABLE, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);

/**
 * Text fit for a terminal: made only here, by `tty` (which escapes whatever it did not make itself) or `styled`
 * (harness's own colours around it). The private member makes the type nominal, so a plain string, however it was
 * built, is not one: the compiler refuses a raw write to a sink that takes only TerminalText.
 */
class TerminalText {
  declare private readonly escaped: true;
  constructor(readonly text: string) {}
}

export type { TerminalText };

/** What may be interpolated into `tty`: terminal text as it is, anything else escaped by `printable`. */
type TerminalPart = TerminalText | string | number;

const render = (part: TerminalPart): string =>
  part instanceof TerminalText ? part.text : printable(String(part));

/** A template whose literals are harness's own and whose every other value is escaped unless it is TerminalText. */
export const tty = (strings: TemplateStringsArray, ...values: readonly TerminalPart[]): TerminalText =>
  new TerminalText(strings.reduce((out, literal, i) => out + render(values[i - 1]!) + literal));

/** Pieces joined by `separator`, each escaped unless it is TerminalText. */
export const joinTerminal = (parts: readonly TerminalPart[], separator: TerminalPart): TerminalText =>
  new TerminalText(parts.map(render).join(render(separator)));

/** Text of several lines (a note, k6's output) kept on its lines, each line escaped. */
export const terminalLines = (text: string): TerminalText => joinTerminal(text.split('\n'), tty`\n`);

/** Harness's own control, for a progress line redrawn in place: back to the start of the line and erase it. */
export const ERASE_LINE = tty`\r\x1b[2K`;

/** `text` inside harness's own escape codes (a colour): `style` must add nothing but those. */
export const styled = (text: TerminalText, style: (text: string) => string): TerminalText =>
  new TerminalText(style(text.text));

/** A plain-text table (text-table.ts) of escaped cells; `style` (a grade's colour) applies to padded cells. */
export const terminalTable = (
  rows: readonly (readonly TerminalPart[])[],
  {
    style,
    ...options
  }: Omit<TableOptions, 'style'> & {
    readonly style?: (cell: TerminalText, column: number, row: number) => TerminalText;
  } = {},
): TerminalText[] =>
  table(
    rows.map((row) => row.map(render)),
    {
      ...options,
      ...(style && { style: (cell, column, row) => style(new TerminalText(cell), column, row).text }),
    },
  ).map((line) => new TerminalText(line));

/**
 * `line` cut to `width` visible characters, ending in … when cut. Every escape sequence in terminal text is one of
 * harness's colours (`ESC [ … m`), since `tty` escaped every other control: each is kept whole and takes no width.
 */
export const fitted = (line: TerminalText, width: number): TerminalText => {
  if (stripVTControlCharacters(line.text).length <= width) return line;
  let room = width - 1;
  let kept = '';
  for (let i = 0; i < line.text.length; i++) {
    if (line.text[i] === '\x1b') {
      const end = line.text.indexOf('m', i);
      kept += line.text.slice(i, end + 1);
      i = end;
    } else if (room > 0) {
      kept += line.text[i];
      room -= 1;
    }
  }
  return new TerminalText(`${kept}…`);
};

/** The one way harness's terminal outputs reach a stream: `write` gets only text that went through TerminalText. */
export const terminalSink =
  (write: (raw: string) => unknown) =>
  (text: TerminalText): void =>
    void write(text.text);

/** A line on stdout (the summary, the plan), as console.log writes it. */
export const say = terminalSink((raw) => console.log(raw));

/** A line on stderr (progress, why a run stopped), as console.error writes it. */
export const complain = terminalSink((raw) => console.error(raw));
