// Terminal tables sized to the terminal: the last column wraps beside its row, or goes under it where the other
// columns leave too little room; without a width (a pipe, a file) every row stays on one line.
import { describe, expect, it } from 'vitest';
import { table, wrapWords } from '../src/text-table.ts';

const ROWS = [
  ['ID', 'CLAUSE', 'TITLE'],
  ['AUTH-TOKEN-TYPE', '§2', 'token_type is `Bearer`, the spelling SPEC.md gives in its example response'],
];

describe('table', () => {
  it('keeps every row on one line without a width', () => {
    expect(table(ROWS)).toEqual([
      'ID               CLAUSE  TITLE',
      'AUTH-TOKEN-TYPE  §2      token_type is `Bearer`, the spelling SPEC.md gives in its example response',
    ]);
  });

  it('wraps the last column under itself, so no line is wider than the terminal', () => {
    const lines = table(ROWS, { width: 60 });
    expect(lines).toEqual([
      'ID               CLAUSE  TITLE',
      'AUTH-TOKEN-TYPE  §2      token_type is `Bearer`, the',
      '                         spelling SPEC.md gives in its',
      '                         example response',
    ]);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(60);
  });

  it('puts the last column under its row, indented, where the other columns leave too little room', () => {
    const lines = table(ROWS, { width: 40, indent: '  ' });
    expect(lines).toEqual([
      '  ID  CLAUSE',
      '      TITLE',
      '  AUTH-TOKEN-TYPE  §2',
      '      token_type is `Bearer`, the',
      '      spelling SPEC.md gives in its',
      '      example response',
    ]);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(40);
  });
});

describe('wrapWords', () => {
  it('cuts a word longer than the room after a slash or a hyphen, or at the room where it has none', () => {
    expect(wrapWords('POST /api/transactions/batch/generate-upload-url now', 16)).toEqual([
      'POST /api/',
      'transactions/',
      'batch/generate-',
      'upload-url now',
    ]);
    expect(wrapWords('ABCDEFGHIJKL', 5)).toEqual(['ABCDE', 'FGHIJ', 'KL']);
  });
});
