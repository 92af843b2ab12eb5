// Errors are told apart one way: by code, `isHarnessError(error, code)`, which narrows to the class the code is
// thrown as. An `instanceof` on a class of harness's errors is a second way, which a new class or a wrapped error
// (a TokenError made from a TargetError) can quietly slip past.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');

/**
 * Left to the branch that puts the probe on an injectable clock (issue 37), which rewrites these files: each is one
 * line, `isHarnessError(error, 'HARNESS_TARGET')` or `'HARNESS_TOKEN'` in place of the instanceof.
 */
const PENDING: string[] = [];

const sourcesIn = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts'))
    .map((name) => join(dir, name));

const treeOf = (file: string) =>
  ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);

const eachNode = (node: ts.Node, visit: (node: ts.Node) => void): void => {
  visit(node);
  ts.forEachChild(node, (child) => eachNode(child, visit));
};

/** Every class that extends HarnessError, directly or through another such class. */
const errorClasses = (files: readonly string[]): Set<string> => {
  const parentOf = new Map<string, string>();
  for (const file of files)
    eachNode(treeOf(file), (node) => {
      if (!ts.isClassDeclaration(node) || node.name === undefined) return;
      const parent = node.heritageClauses?.[0]?.types[0]?.expression;
      if (parent !== undefined && ts.isIdentifier(parent)) parentOf.set(node.name.text, parent.text);
    });
  const isError = (name: string | undefined, depth = 0): boolean =>
    name === 'HarnessError' || (name !== undefined && depth < 10 && isError(parentOf.get(name), depth + 1));
  return new Set([...parentOf.keys()].filter((name) => isError(name)));
};

/** `file: instanceof Class` for each instanceof on one of `classes` in `files`. */
const toldByClass = (files: readonly string[], classes: ReadonlySet<string>): string[] =>
  files.flatMap((file) => {
    const found: string[] = [];
    eachNode(treeOf(file), (node) => {
      if (
        ts.isBinaryExpression(node) &&
        node.operatorToken.kind === ts.SyntaxKind.InstanceOfKeyword &&
        ts.isIdentifier(node.right) &&
        classes.has(node.right.text)
      )
        found.push(`${relative(ROOT, file)}: instanceof ${node.right.text}`);
    });
    return found;
  });

const SOURCES = ['src', 'core', 'conformance'].flatMap((dir) => sourcesIn(join(ROOT, dir)));
// isHarnessError itself asks the base class, the one place that may.
const CALLERS = SOURCES.filter((file) => relative(ROOT, file) !== 'src/errors.ts');

describe('errors', () => {
  it('are told apart by code, never by an instanceof on a class of harness errors', () => {
    expect(toldByClass(CALLERS, errorClasses(SOURCES)).sort()).toEqual(PENDING);
  });

  it('knows every class of harness errors, those that extend another among them too', () => {
    const classes = errorClasses(SOURCES);
    for (const name of ['InputError', 'TargetError', 'TokenError', 'ReportWriteError', 'Mismatch'])
      expect(classes).toContain(name);
    expect(classes).not.toContain('GradedEnd');
  });

  it('would see a module that tells errors apart by class', () => {
    const fixture = join(import.meta.dirname, 'fixtures', 'error-classes', 'tells-by-class.ts');
    expect(toldByClass([fixture], errorClasses(SOURCES))).toEqual([
      `${relative(ROOT, fixture)}: instanceof TokenError`,
      `${relative(ROOT, fixture)}: instanceof TargetError`,
    ]);
  });
});
