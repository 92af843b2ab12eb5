// Which code runs where, held by its imports: core/ runs in Node and inside k6, so it imports only itself (k6 has
// no node:* or npm packages; Node has no k6/*); load/ runs only inside k6, so it never reaches into src/ (Node);
// src/ and conformance/ run only in Node, so they never import load/ (k6's modules exist only there).
// Globals are held by `tsc -p core` (no Node or k6 types), imports here.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');

/** Packages core/ may import: pure JavaScript that both runtimes load the same way. None is needed yet. */
const CORE_PACKAGES: readonly string[] = [];

const sourcesIn = (folder: string): string[] =>
  readdirSync(join(ROOT, folder), { recursive: true, encoding: 'utf8' })
    .filter((p) => p.endsWith('.ts') && !p.endsWith('.d.ts'))
    .map((p) => join(folder, p));

/** Every module a file names: static, type-only, re-exports, dynamic import() and require(). */
const importsOf = (text: string): string[] =>
  ts.preProcessFile(text, true, true).importedFiles.map((f) => f.fileName);

/** `file: specifier` for each import of the folder's files that `allowed` refuses, given its repository path. */
const offending = (folders: string[], allowed: (specifier: string, target: string | undefined) => boolean) =>
  folders
    .flatMap(sourcesIn)
    .flatMap((file) =>
      importsOf(readFileSync(join(ROOT, file), 'utf8')).map((specifier) => {
        const target = specifier.startsWith('.')
          ? relative(ROOT, resolve(ROOT, dirname(file), specifier))
          : undefined;
        return allowed(specifier, target) ? undefined : `${file}: ${specifier}`;
      }),
    )
    .filter((line) => line !== undefined);

const inside = (target: string | undefined, folder: string) => target?.startsWith(`${folder}/`) ?? false;

describe('import boundaries', () => {
  it('finds static, type-only, re-exported and dynamic imports', () => {
    const text = [
      "import { a } from './a.ts';",
      "import type { B } from 'node:fs';",
      "export * from 'k6/http';",
      "const u = await import('undici');",
    ].join('\n');
    expect(importsOf(text)).toEqual(['./a.ts', 'node:fs', 'k6/http', 'undici']);
  });

  it('core/ imports only core/ (and pure packages): nothing only Node or only k6 has', () => {
    expect(
      offending(['core'], (specifier, target) =>
        target === undefined ? CORE_PACKAGES.includes(specifier) : inside(target, 'core'),
      ),
    ).toEqual([]);
  });

  it('load/ imports only k6, load/ and core/: nothing from src/ or any npm package', () => {
    expect(
      offending(['load'], (specifier, target) =>
        target === undefined
          ? specifier === 'k6' || specifier.startsWith('k6/')
          : inside(target, 'load') || inside(target, 'core'),
      ),
    ).toEqual([]);
  });

  it('src/ and conformance/ import nothing from load/ (it needs k6)', () => {
    expect(offending(['src', 'conformance'], (_, target) => !inside(target, 'load'))).toEqual([]);
  });
});
