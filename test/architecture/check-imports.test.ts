// Checks read the runner through one module (src/runner/checks.ts) and the spec data through src/spec: the runner's
// own layout can then change without touching a check. Subfolders of conformance/ are held to it too, and so are
// packages: a check that sends its own HTTP (undici) would bypass the client that records and redacts evidence.
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importsUnder } from './imports.ts';

const REPOSITORY = resolve(import.meta.dirname, '../..');
const ALLOWED = ['src/runner/checks.ts', 'src/spec/index.ts'];
/** Packages a check may import: schema validation of a body, nothing that talks to the network. */
const PACKAGES = ['ajv'];

/** `file: specifier` for each import of a .ts file under `folder` that reaches past the facade. */
const outsideFacade = (folder: string): string[] =>
  importsUnder(folder, '.')
    .filter(({ specifier, target }) =>
      target === undefined
        ? !PACKAGES.includes(specifier)
        : target.startsWith('../') && !ALLOWED.includes(relative(REPOSITORY, resolve(folder, target))),
    )
    .map(({ file, specifier }) => `${file}: ${specifier}`);

describe('conformance/', () => {
  it('imports the runner only through src/runner/checks.ts, besides the spec data and its own modules', () => {
    expect(outsideFacade(join(REPOSITORY, 'conformance'))).toEqual([]);
  });

  it('catches a check in a subfolder that imports the runner directly, or a package of its own', () => {
    expect(outsideFacade(join(import.meta.dirname, 'fixtures', 'checks'))).toEqual([
      'deep/bypasses-facade.ts: undici',
      'deep/bypasses-facade.ts: ../../../../../src/runner/session.ts',
    ]);
  });
});
