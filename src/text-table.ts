// Plain-text tables for the terminal: each column as wide as its widest cell, so a long check ID never breaks a row.

export interface TableOptions {
  /** Put before every row, e.g. two spaces to indent a table under its heading. */
  readonly indent?: string;
  /** Columns (by index) whose cells are right-aligned, such as counts. */
  readonly right?: readonly number[];
  /** Applied to each padded cell, e.g. to colour a grade; the padding is computed on the plain text. */
  readonly style?: (cell: string, column: number, row: number) => string;
}

/** One line per row; the last column is not padded, so no line ends in spaces. */
export const table = (rows: readonly (readonly string[])[], options: TableOptions = {}): string[] => {
  const columns = Math.max(0, ...rows.map((row) => row.length));
  const widths = Array.from({ length: columns }, (_, i) =>
    Math.max(...rows.map((row) => row[i]?.length ?? 0)),
  );
  return rows.map(
    (row, r) =>
      (options.indent ?? '') +
      row
        .map((cell, i) => {
          const last = i === row.length - 1;
          const padded = options.right?.includes(i)
            ? cell.padStart(widths[i]!)
            : last
              ? cell
              : cell.padEnd(widths[i]!);
          return options.style ? options.style(padded, i, r) : padded;
        })
        .join('  '),
  );
};
