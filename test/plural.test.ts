import { describe, expect, it } from 'vitest';
import { plural } from '../src/plural.ts';

describe('plural', () => {
  it('writes the singular for exactly one and the plural otherwise, zero included', () => {
    expect([0, 1, 2].map((n) => plural(n, 'check'))).toEqual(['0 checks', '1 check', '2 checks']);
  });

  it('takes an irregular plural', () => {
    expect([plural(1, 'summary', 'summaries'), plural(3, 'summary', 'summaries')]).toEqual([
      '1 summary',
      '3 summaries',
    ]);
  });
});
