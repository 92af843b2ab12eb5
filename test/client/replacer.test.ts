import { describe, expect, it } from 'vitest';
import { LongestMatchReplacer } from '../../src/client/replacer.ts';
import { seededRandom } from '../support/random.ts';

/** What the Redactor's regular expression did: leftmost match first, the longest pattern there, then on after it. */
const naive = (text: string, patterns: ReadonlyMap<string, string>): string => {
  const byLength = [...patterns.keys()].sort((a, b) => b.length - a.length);
  let out = '';
  for (let at = 0; at < text.length; ) {
    const found = byLength.find((p) => text.startsWith(p, at));
    if (found === undefined) out += text[at++];
    else {
      out += patterns.get(found);
      at += found.length;
    }
  }
  return out;
};

describe('LongestMatchReplacer', () => {
  it('replaces exactly as leftmost-longest matching does, on texts and patterns over a small alphabet', () => {
    for (let seed = 1; seed <= 200; seed++) {
      const next = seededRandom(seed);
      const word = (max: number) =>
        Array.from({ length: 1 + Math.floor(next() * max) }, () => 'abc'[Math.floor(next() * 3)]).join('');
      const replacer = new LongestMatchReplacer();
      const patterns = new Map<string, string>();
      for (let i = 0; i < 1 + Math.floor(next() * 12); i++) {
        const pattern = word(6);
        if (patterns.has(pattern)) continue;
        patterns.set(pattern, `<${i}>`);
        replacer.add(pattern, `<${i}>`);
        const text = word(60);
        expect(replacer.replace(text), `seed ${seed}: ${text}`).toBe(naive(text, patterns));
      }
    }
  });

  it('takes steps linear in the text whatever it holds: 1,000 patterns of 8,000 characters built to mislead', () => {
    const replacer = new LongestMatchReplacer();
    // Every pattern but its last character matches any run of "a": a scan that retried each candidate at each
    // position would take 65,536 x 8,000 steps per pattern. One learned per scan, as from a token in every answer.
    for (let i = 0; i < 1000; i++) {
      replacer.add(`${'a'.repeat(7999)}${String.fromCharCode(0x100 + i)}`, '#');
      replacer.replace('a');
    }
    const stepsFor = (text: string): number => {
      const before = replacer.steps;
      expect(replacer.replace(text)).toBe(text);
      return replacer.steps - before;
    };
    const small = stepsFor('a'.repeat(16 * 1024));
    const large = stepsFor('a'.repeat(64 * 1024));
    expect(replacer.levels).toBeLessThanOrEqual(Math.ceil(Math.log2(1000)) + 1);
    expect(large).toBeLessThanOrEqual(2 * 64 * 1024 * replacer.levels);
    expect(large / small).toBeCloseTo(4, 1);
    expect(replacer.replace(`x${'a'.repeat(7999)}\u0105y`)).toBe('x#y');
  });
});
