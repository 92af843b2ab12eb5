// Grades in colour only for a person at a terminal who has not asked for none (https://no-color.org).
import { stripVTControlCharacters } from 'node:util';
import { describe, expect, it } from 'vitest';
import { terminalTable, tty } from '../../src/printable.ts';
import { gradePainter } from '../../src/terminal/colour.ts';

const ESC = '\u001b[';

describe('gradePainter', () => {
  it('colours a grade on a terminal', () => {
    const paint = gradePainter({ isTTY: true }, {});
    expect(paint('FAIL').text).toBe(`${ESC}31mFAIL${ESC}39m`);
    expect(paint('PASS', tty`PASS  `).text).toBe(`${ESC}32mPASS  ${ESC}39m`);
  });

  it('writes plain text with any non-empty NO_COLOR, or to a pipe or file', () => {
    expect(gradePainter({ isTTY: true }, { NO_COLOR: '1' })('FAIL').text).toBe('FAIL');
    expect(gradePainter({ isTTY: false }, {})('FAIL').text).toBe('FAIL');
    expect(gradePainter({}, {})('FAIL').text).toBe('FAIL');
    // An empty NO_COLOR is no request: the convention counts only a non-empty value.
    expect(gradePainter({ isTTY: true }, { NO_COLOR: '' })('FAIL').text).toContain(ESC);
  });
});

describe('terminalTable', () => {
  it('makes each column as wide as its widest cell, right-aligns counts, and pads colour by the plain text', () => {
    const paint = gradePainter({ isTTY: true }, {});
    const lines = terminalTable(
      [
        ['FAIL', 'A-VERY-LONG-CHECK-ID-THAT-ONCE-BROKE-THE-COLUMNS', '7'],
        ['PASS', 'SHORT', '12'],
      ],
      { indent: '  ', right: [2], style: (cell, column) => (column === 0 ? paint('PASS', cell) : cell) },
    );
    const plain = lines.map((line) => stripVTControlCharacters(line.text));
    expect(plain).toEqual([
      '  FAIL  A-VERY-LONG-CHECK-ID-THAT-ONCE-BROKE-THE-COLUMNS   7',
      '  PASS  SHORT                                             12',
    ]);
    expect(lines[0]!.text).toContain(ESC);
  });
});
