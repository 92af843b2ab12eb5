// Checks read the runner through one module (src/runner/checks.ts) and the spec data through src/spec: the runner's
// own layout can then change without touching a check.
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const CONFORMANCE = resolve(import.meta.dirname, '../../conformance');
const ALLOWED = ['../src/runner/checks.ts', '../src/spec/index.ts'];

describe('conformance/', () => {
  it('imports the runner only through src/runner/checks.ts, besides the spec data and its own modules', () => {
    const outside = readdirSync(CONFORMANCE)
      .filter((name) => name.endsWith('.ts'))
      .flatMap((name) =>
        ts
          .preProcessFile(readFileSync(join(CONFORMANCE, name), 'utf8'), true, true)
          .importedFiles.map((imported) => imported.fileName)
          .filter((path) => path.startsWith('../') && !ALLOWED.includes(path))
          .map((path) => `${name}: ${path}`),
      );
    expect(outside).toEqual([]);
  });
});
