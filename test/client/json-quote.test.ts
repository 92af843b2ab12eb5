// A value from a target's answer, quoted in a check's message: as JSON.stringify writes it while it is shallow, and
// cut to a marker, never a stack overflow, however deep the target nests it.
import { describe, expect, it } from 'vitest';
import { QUOTE_DEPTH, quoteJson } from '../../src/client/json-quote.ts';

const deepArray = (depth: number) => JSON.parse(`${'['.repeat(depth)}${']'.repeat(depth)}`) as unknown;
const deepObject = (depth: number) => JSON.parse(`${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`) as unknown;

describe('quoteJson', () => {
  it.each([
    ['a string', 'Bearer'],
    ['escapes', 'quote " backslash \\ newline \n'],
    ['a number', 3600],
    ['a fraction', 3600.5],
    ['true', true],
    ['null', null],
    ['an empty array', []],
    ['an empty object', {}],
    ['a mixed answer', { token_type: ['Bearer', { x: null }], expires_in: 1, '': { 'a"b': [1, [2, [3]]] } }],
  ])('writes %s as JSON.stringify does', (_name, value) => {
    expect(quoteJson(value)).toBe(JSON.stringify(value));
  });

  it('writes a missing field as the word undefined, as the template string did', () => {
    expect(quoteJson(undefined)).toBe('undefined');
  });

  it('shows an array or object QUOTE_DEPTH levels down as a marker', () => {
    expect(quoteJson(deepArray(QUOTE_DEPTH))).toBe(JSON.stringify(deepArray(QUOTE_DEPTH)));
    expect(quoteJson(deepArray(QUOTE_DEPTH + 1))).toBe(
      `${'['.repeat(QUOTE_DEPTH)}[…]${']'.repeat(QUOTE_DEPTH)}`,
    );
    expect(quoteJson({ a: { b: [1, { c: 2 }] } }, 2)).toBe('{"a":{"b":[…]}}');
    expect(quoteJson([{ a: 1 }, 2], 1)).toBe('[{…},2]');
    expect(quoteJson({ a: 1 }, 0)).toBe('{…}');
  });

  it.each([5_000, 100_000])('quotes a value %i levels deep, which JSON.stringify cannot', (depth) => {
    for (const [value, open, close] of [
      [deepArray(depth), '[', ']'],
      [deepObject(depth), '{"a":', '}'],
    ] as const) {
      expect(() => JSON.stringify(value)).toThrow(RangeError);
      const marker = open === '[' ? '[…]' : '{…}';
      expect(quoteJson(value)).toBe(`${open.repeat(QUOTE_DEPTH)}${marker}${close.repeat(QUOTE_DEPTH)}`);
    }
  });
});
