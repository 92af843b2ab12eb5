// Which code runs where, held by its imports: core/ runs in Node and inside k6, so it imports only itself (k6 has
// no node:* or npm packages; Node has no k6/*); load/ runs only inside k6, so it never reaches into src/ (Node);
// src/ and conformance/ run only in Node, so they never import load/ (k6's modules exist only there).
// Globals are held by `tsc -p core` (no Node or k6 types), imports here.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const REPOSITORY = resolve(import.meta.dirname, '../..');
/** A tree with a core/ that breaks the boundary: the rule must catch it. */
const BROKEN = resolve(import.meta.dirname, '../architecture/fixtures/boundary');

/** Packages core/ may import: pure JavaScript that both runtimes load the same way. None is needed yet. */
const CORE_PACKAGES: readonly string[] = [];

const sourcesIn = (root: string, folder: string): string[] =>
  readdirSync(join(root, folder), { recursive: true, encoding: 'utf8' })
    .filter((p) => p.endsWith('.ts') && !p.endsWith('.d.ts'))
    .map((p) => join(folder, p));

/**
 * Every module a file names: static, type-only, re-exports, dynamic import() and require(), and the packages and
 * files of `/// <reference types=... />` and `/// <reference path=... />`, which bring in types as surely.
 */
const importsOf = (text: string): string[] => {
  const found = ts.preProcessFile(text, true, true);
  return [
    ...found.typeReferenceDirectives.map((d) => d.fileName),
    ...found.referencedFiles.map((f) => (f.fileName.startsWith('.') ? f.fileName : `./${f.fileName}`)),
    ...found.importedFiles.map((f) => f.fileName),
  ];
};

/** `file: specifier` for each import of the folder's files that `allowed` refuses, given its path under `root`. */
const offending = (
  folders: string[],
  allowed: (specifier: string, target: string | undefined) => boolean,
  root = REPOSITORY,
) =>
  folders
    .flatMap((folder) => sourcesIn(root, folder))
    .flatMap((file) =>
      importsOf(readFileSync(join(root, file), 'utf8')).map((specifier) => {
        const target = specifier.startsWith('.')
          ? relative(root, resolve(root, dirname(file), specifier))
          : undefined;
        return allowed(specifier, target) ? undefined : `${file}: ${specifier}`;
      }),
    )
    .filter((line) => line !== undefined);

/** core/'s rule: only itself, and the pure packages listed. */
const coreAllows = (specifier: string, target: string | undefined) =>
  target === undefined ? CORE_PACKAGES.includes(specifier) : inside(target, 'core');

const inside = (target: string | undefined, folder: string) => target?.startsWith(`${folder}/`) ?? false;

describe('import boundaries', () => {
  it('finds static, type-only, re-exported and dynamic imports, and reference directives', () => {
    const text = [
      '/// <reference types="k6" />',
      '/// <reference path="../load/globals.d.ts" />',
      "import { a } from './a.ts';",
      "import type { B } from 'node:fs';",
      "export * from 'k6/http';",
      "const u = await import('undici');",
    ].join('\n');
    expect(importsOf(text)).toEqual(['k6', '../load/globals.d.ts', './a.ts', 'node:fs', 'k6/http', 'undici']);
  });

  it('core/ imports only core/ (and pure packages): nothing only Node or only k6 has', () => {
    expect(offending(['core'], coreAllows)).toEqual([]);
  });

  it('catches a core/ module that breaks the rule, by its import and by its reference directive', () => {
    expect(offending(['core'], coreAllows, BROKEN)).toEqual([
      'core/reaches-node.ts: node',
      'core/reaches-node.ts: node:fs',
    ]);
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
