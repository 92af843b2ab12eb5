// No module of src/ reaches itself through its imports, type-only ones included: a cycle means two modules each need
// the other, so neither can be read (or moved) alone. Every relative import is followed, into load/ and out again.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');

const sourcesIn = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => join(entry.parentPath, entry.name));

/** The files `file` imports by a relative path (static, type-only, re-exported or dynamic). */
const importsOf = (file: string): string[] =>
  ts
    .preProcessFile(readFileSync(file, 'utf8'), true, true)
    .importedFiles.map((imported) => imported.fileName)
    .filter((name) => name.startsWith('.'))
    .map((name) => resolve(dirname(file), name))
    .filter((path) => existsSync(path));

/** Cycles reachable from `roots` (at least one for each there is), as the files along it, the first repeated last. */
const importCycles = (roots: readonly string[]): string[][] => {
  const cycles: string[][] = [];
  const done = new Set<string>();
  const path: string[] = [];
  const visit = (file: string): void => {
    const at = path.indexOf(file);
    if (at >= 0) {
      // Started at its first file by name, so one cycle reads the same wherever the search came upon it.
      const ring = path.slice(at);
      const start = ring.indexOf([...ring].sort()[0]!);
      cycles.push([...ring.slice(start), ...ring.slice(0, start), ring[start]!]);
      return;
    }
    if (done.has(file)) return;
    path.push(file);
    for (const imported of importsOf(file)) visit(imported);
    path.pop();
    done.add(file);
  };
  for (const root of roots) visit(root);
  return cycles;
};

/**
 * Cycles left to the engineer who owns the code (issue 16 §2 rewrites src/cli's command prologue): listed, not
 * ignored, so a new cycle still fails and the list shrinks as they go.
 */
const shown = (cycle: readonly string[]) => cycle.map((file) => relative(ROOT, file)).join(' -> ');

describe('import cycles', () => {
  it('src/ has none, type-only imports included', () => {
    const cycles = importCycles(sourcesIn(join(ROOT, 'src'))).map(shown);
    expect(cycles).toEqual([]);
  });

  it('are found through type-only and re-exported imports', () => {
    const fixture = join(ROOT, 'test/architecture/fixtures/cycle');
    expect(importCycles([join(fixture, 'a.ts')]).map(shown)).toEqual([
      'test/architecture/fixtures/cycle/a.ts -> test/architecture/fixtures/cycle/b.ts -> test/architecture/fixtures/cycle/c.ts -> test/architecture/fixtures/cycle/a.ts',
    ]);
  });
});
