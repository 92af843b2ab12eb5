// Plain-text tables for the terminal: each column as wide as its widest cell, so a long check ID never breaks a row.
// Given the terminal's width, the last column (a title, a message) wraps at spaces within it rather than letting the
// terminal break the line under the first column; where even the other columns do not fit, each row's last cell goes
// under it, indented, so nothing is cut.

export interface TableOptions {
  /** Put before every row, e.g. two spaces to indent a table under its heading. */
  readonly indent?: string;
  /** Columns (by index) whose cells are right-aligned, such as counts. */
  readonly right?: readonly number[];
  /** Applied to each padded cell, e.g. to colour a grade; the padding is computed on the plain text. */
  readonly style?: (cell: string, column: number, row: number) => string;
  /** The terminal's columns; undefined (a pipe, a file) leaves every row on one line. */
  readonly width?: number;
}

/** Below this many columns left for the last cell, it goes under its row instead of beside it. */
const NARROWEST = 30;
const STACKED_INDENT = '    ';

/** A word longer than `room` in pieces that fit, each cut after its last `/` or `-` where it has one. */
const pieces = (word: string, room: number): string[] => {
  const cut: string[] = [];
  let rest = word;
  while (rest.length > room) {
    const at = Math.max(rest.lastIndexOf('/', room - 1), rest.lastIndexOf('-', room - 1));
    const end = at > 0 ? at + 1 : room;
    cut.push(rest.slice(0, end));
    rest = rest.slice(end);
  }
  return [...cut, rest];
};

/** `text` broken at spaces into lines of at most `room` characters; a longer word is cut (see pieces). */
export const wrapWords = (text: string, room: number): string[] => {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ').flatMap((w) => pieces(w, Math.max(1, room)))) {
    if (line !== '' && line.length + 1 + word.length > room) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  return [...lines, line];
};

/** One line per row (more where the last column wraps); the last column is not padded, so no line ends in spaces. */
export const table = (rows: readonly (readonly string[])[], options: TableOptions = {}): string[] => {
  const indent = options.indent ?? '';
  const columns = Math.max(0, ...rows.map((row) => row.length));
  const widths = Array.from({ length: columns }, (_, i) =>
    Math.max(...rows.map((row) => row[i]?.length ?? 0)),
  );
  const lastStarts = indent.length + widths.slice(0, -1).reduce((sum, w) => sum + w + 2, 0);
  const room = options.width === undefined ? Number.POSITIVE_INFINITY : options.width - lastStarts;
  const stacked = room < NARROWEST;
  return rows.flatMap((row, r) => {
    const cells = row.map((cell, i) => {
      const last = i === row.length - 1;
      const padded = options.right?.includes(i)
        ? cell.padStart(widths[i]!)
        : last || stacked
          ? cell
          : cell.padEnd(widths[i]!);
      return options.style ? options.style(padded, i, r) : padded;
    });
    if (options.width === undefined || row.length < columns) return [indent + cells.join('  ')];
    const wrapped = (within: number) =>
      wrapWords(row.at(-1) ?? '', within).map((line) => options.style?.(line, columns - 1, r) ?? line);
    if (stacked) {
      const under = wrapped(options.width - indent.length - STACKED_INDENT.length);
      const head = wrapWords(cells.slice(0, -1).join('  '), options.width - indent.length);
      return [...head.map((line) => indent + line), ...under.map((line) => indent + STACKED_INDENT + line)];
    }
    const [first = '', ...rest] = wrapped(room);
    const lead = indent + cells.slice(0, -1).join('  ');
    return [
      `${lead}${lead === indent ? '' : '  '}${first}`,
      ...rest.map((line) => ' '.repeat(lastStarts) + line),
    ];
  });
};

/** The width to size a table to: the terminal's, when `stream` is one; none for a pipe or a file. */
export const terminalWidth = (stream: { readonly isTTY?: boolean; readonly columns?: number }) =>
  stream.isTTY && stream.columns ? { width: stream.columns } : {};
