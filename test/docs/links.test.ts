// Every relative link in README.md, CONTRIBUTING.md and docs/*.md leads somewhere: the file exists and, for `#anchor`, so does a
// heading with that GitHub slug. Moving a section between files breaks links silently otherwise.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const DOCS = join(ROOT, 'docs');
const FILES = [
  join(ROOT, 'README.md'),
  join(ROOT, 'CONTRIBUTING.md'),
  ...readdirSync(DOCS)
    .filter((name) => name.endsWith('.md'))
    .map((name) => join(DOCS, name)),
];

/** Fenced code blocks hold neither headings nor links. */
const withoutFences = (markdown: string): string => markdown.replace(/^```[\s\S]*?^```/gm, '');

/** The text whose links a reader follows: inline code holds none either. */
const prose = (markdown: string): string => withoutFences(markdown).replace(/`[^`\n]*`/g, 'code');

/** GitHub's heading anchor: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
const anchorsOf = (markdown: string): Set<string> => {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const [, heading] of withoutFences(markdown).matchAll(/^#{1,6} +(.+?) *#*$/gm)) {
    const slug = heading!
      .replaceAll('`', '')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
};

interface Link {
  readonly from: string;
  readonly target: string;
  readonly image: boolean;
}

const linksOf = (file: string): Link[] =>
  [...prose(readFileSync(file, 'utf8')).matchAll(/(!?)\[[^\]]*\]\(([^)\s]+)\)/g)]
    .map(([, bang, target]) => ({ from: relative(ROOT, file), target: target!, image: bang === '!' }))
    .filter((link) => !/^[a-z]+:/i.test(link.target));

const links = FILES.flatMap(linksOf);

/** The report screenshots are made from real runs by a script of their own, and may not be there yet. */
const screenshotNotMade = (link: Link) =>
  link.image && !existsSync(resolve(ROOT, dirname(link.from), link.target));

describe('relative links in README.md, CONTRIBUTING.md and docs/', () => {
  it('are there to check', () => {
    expect(links.length).toBeGreaterThan(30);
    expect(links.some((link) => link.from.startsWith('docs/'))).toBe(true);
  });

  it.each(links.filter((link) => !screenshotNotMade(link)))('$from → $target', ({ from, target }) => {
    const [path, anchor] = target.split('#') as [string, string | undefined];
    const file = path === '' ? join(ROOT, from) : resolve(ROOT, dirname(from), decodeURIComponent(path));
    expect(existsSync(file), `${from}: no file ${path}`).toBe(true);
    if (anchor !== undefined) {
      expect([...anchorsOf(readFileSync(file, 'utf8'))], `${from}: no heading #${anchor}`).toContain(anchor);
    }
  });

  it.skip.each(links.filter(screenshotNotMade))('$from → $target (screenshot not made yet)', () => {});
});

describe('anchorsOf', () => {
  it('spells anchors as GitHub does', () => {
    const anchors = anchorsOf(
      '# Bounds: what a broken target can cost\n## `--baseline` FILE\n## Load\n## Load\n```\n# not a heading\n```',
    );
    expect([...anchors]).toEqual([
      'bounds-what-a-broken-target-can-cost',
      '--baseline-file',
      'load',
      'load-1',
    ]);
  });
});
