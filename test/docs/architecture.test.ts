// docs/architecture.md stays true as files move: its Layout table names every folder and loose file of src/, and
// every file it names (as `folder/file.ts`, from src/ or from the repository's root) is there.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const PAGE = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8');

/** The paths the Layout table's rows start with. */
const layoutRows = (markdown: string): string[] => {
  const section = markdown.split(/^## /m).find((part) => part.startsWith('Layout\n')) ?? '';
  return [...section.matchAll(/^\| `([^`]+)`/gm)].map((match) => match[1]!);
};

/** Each `a/b.ts` named in code spans whose file is neither under src/ nor under the root. */
const missingFiles = (markdown: string, root: string): string[] =>
  [...new Set([...markdown.matchAll(/`([\w.-]+(?:\/[\w.-]+)+\.ts)`/g)].map((match) => match[1]!))].filter(
    (path) => !existsSync(join(root, 'src', path)) && !existsSync(join(root, path)),
  );

describe('docs/architecture.md', () => {
  it('has a Layout row for every folder and loose file of src/', () => {
    const entries = readdirSync(join(ROOT, 'src'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory() || entry.name.endsWith('.ts'))
      .map((entry) => (entry.isDirectory() ? `src/${entry.name}/` : `src/${entry.name}`));
    expect(entries.filter((entry) => !layoutRows(PAGE).includes(entry))).toEqual([]);
  });

  it('names only files that are there', () => {
    expect(missingFiles(PAGE, ROOT)).toEqual([]);
  });

  it('would see a missing row and a file that moved', () => {
    const page =
      '## Layout\n\n| `src/cli/` | commands |\n\n## Routes\n\n`cli/main.ts`, then `runner/summary.ts`.\n';
    expect(layoutRows(page)).toEqual(['src/cli/']);
    expect(missingFiles(page, ROOT)).toEqual(['runner/summary.ts']);
  });
});
