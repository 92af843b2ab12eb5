import { describe, expect, it } from 'vitest';
import { LongestMatchReplacer } from '../../src/client/replacer.ts';
import { seededRandom } from '../support/random.ts';

/** What the Redactor's regular expression did: leftmost match first, the longest pattern there, then on after it. */
const naive = (text: string, patterns: ReadonlyMap<string, string>, keep = text.length): string => {
  const byLength = [...patterns.keys()].sort((a, b) => b.length - a.length);
  let out = '';
  for (let at = 0; at < keep; ) {
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

  it('replaces the start of a text as replace does, a match straddling the cut whole, nothing past it', () => {
    for (let seed = 1; seed <= 200; seed++) {
      const next = seededRandom(seed);
      const word = (max: number) =>
        Array.from({ length: 1 + Math.floor(next() * max) }, () => 'abc'[Math.floor(next() * 3)]).join('');
      const replacer = new LongestMatchReplacer();
      const patterns = new Map<string, string>();
      for (let i = 0; i < 1 + Math.floor(next() * 8); i++) {
        const pattern = word(8);
        if (patterns.has(pattern)) continue;
        patterns.set(pattern, `<${i}>`);
        replacer.add(pattern, `<${i}>`);
      }
      const text = word(60);
      const keep = Math.floor(next() * (text.length + 1));
      // The leftmost-longest replacement of the whole text, up to the first piece that starts at or past `keep`.
      const expected = naive(text, patterns, keep);
      expect(replacer.head(text, keep), `seed ${seed}: ${text} cut at ${keep}`).toBe(expected);
    }
  });

  it('scans only the kept start and the longest pattern past it, however long the text', () => {
    const replacer = new LongestMatchReplacer();
    replacer.add('s'.repeat(100), '#');
    const before = replacer.steps;
    expect(replacer.head(`${'a'.repeat(990)}${'s'.repeat(100)}${'a'.repeat(1_000_000)}`, 1000)).toBe(
      `${'a'.repeat(990)}#`,
    );
    expect(replacer.steps - before).toBeLessThanOrEqual(2 * (1000 + 100));
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
