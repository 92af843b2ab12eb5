// The relative imports of a tree's TypeScript files, read the way check-imports.test.ts and layers.test.ts both read
// them: static, type-only, re-exported and dynamic imports, by the files they name.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

export interface Import {
  /** The importing file, relative to the root given. */
  readonly file: string;
  readonly specifier: string;
  /** The imported file, relative to the root; undefined for a package. */
  readonly target: string | undefined;
}

/** Every import of the .ts files (tests left out) under `folder` of `root`, paths relative to `root`. */
export const importsUnder = (root: string, folder: string): Import[] =>
  readdirSync(join(root, folder), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts') && !name.endsWith('.d.ts'))
    .map((name) => join(folder, name))
    .flatMap((file) =>
      ts
        .preProcessFile(readFileSync(join(root, file), 'utf8'), true, true)
        .importedFiles.map(({ fileName }) => ({
          file,
          specifier: fileName,
          target: fileName.startsWith('.')
            ? relative(root, resolve(root, dirname(file), fileName))
            : undefined,
        })),
    );
