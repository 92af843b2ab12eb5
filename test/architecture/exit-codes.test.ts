// Every exit comes from the exit table (src/cli/exit-codes.ts): only that module sets `process.exitCode` or calls
// `process.exit`, and a command hands its function (exitWith, exitNow, exitCodeOf) the table's named codes, never a
// number of its own, which would be a code with no meaning in `--help` and no rank among the others.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const TABLE = 'src/cli/exit-codes.ts';
const TABLE_FUNCTIONS = ['exitWith', 'exitNow', 'exitCodeOf'];

const isProcessMember = (node: ts.Node, member: string): boolean =>
  ts.isPropertyAccessExpression(node) &&
  node.name.text === member &&
  ts.isIdentifier(node.expression) &&
  node.expression.text === 'process';

/** Whether `node` can evaluate to a number written out (a condition may compare with one: `length === 0 ? ...`). */
const yieldsNumber = (node: ts.Node): boolean => {
  if (ts.isNumericLiteral(node)) return true;
  if (ts.isConditionalExpression(node)) return yieldsNumber(node.whenTrue) || yieldsNumber(node.whenFalse);
  if (ts.isBinaryExpression(node) && LOGICAL.includes(node.operatorToken.kind))
    return yieldsNumber(node.left) || yieldsNumber(node.right);
  if (ts.isArrayLiteralExpression(node)) return node.elements.some(yieldsNumber);
  if (ts.isParenthesizedExpression(node) || ts.isSpreadElement(node) || ts.isAsExpression(node))
    return yieldsNumber(node.expression);
  return false;
};
const LOGICAL = [
  ts.SyntaxKind.QuestionQuestionToken,
  ts.SyntaxKind.BarBarToken,
  ts.SyntaxKind.AmpersandAmpersandToken,
];

/** `line: what` for each exit decided outside the table in `file`. */
const ownExits = (file: string, source: string): string[] => {
  const tree = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const at = (node: ts.Node, what: string) =>
    found.push(`${tree.getLineAndCharacterOfPosition(node.getStart()).line + 1}: ${what}`);
  const visit = (node: ts.Node): void => {
    if (
      ts.isBinaryExpression(node) &&
      node.operatorToken.kind >= ts.SyntaxKind.FirstAssignment &&
      node.operatorToken.kind <= ts.SyntaxKind.LastAssignment &&
      isProcessMember(node.left, 'exitCode')
    )
      at(node, 'sets process.exitCode');
    if (ts.isCallExpression(node)) {
      if (isProcessMember(node.expression, 'exit')) at(node, 'calls process.exit');
      const callee = ts.isIdentifier(node.expression) ? node.expression.text : '';
      if (TABLE_FUNCTIONS.includes(callee) && node.arguments.some(yieldsNumber))
        at(node, `hands ${callee} a number, not a code of the table`);
    }
    ts.forEachChild(node, visit);
  };
  visit(tree);
  return found;
};

const sourcesIn = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts'))
    .map((name) => join(dir, name));

describe('exits', () => {
  it(`come from ${TABLE} alone: no other module of src/ decides one`, () => {
    const outside = sourcesIn(join(ROOT, 'src'))
      .map((file) => relative(ROOT, file))
      .filter((file) => file !== TABLE)
      .flatMap((file) =>
        ownExits(file, readFileSync(join(ROOT, file), 'utf8')).map((why) => `${file}:${why}`),
      );
    expect(outside).toEqual([]);
  });

  it('would see a command that sets its own code, calls process.exit, or hands the table a number', () => {
    const fixture = join(import.meta.dirname, 'fixtures', 'exits', 'own-exit.ts');
    expect(ownExits(fixture, readFileSync(fixture, 'utf8'))).toEqual([
      '8: calls process.exit',
      '9: sets process.exitCode',
      '11: hands exitWith a number, not a code of the table',
    ]);
  });

  it("sees only code: a script in a string that another process runs is that process's own", () => {
    expect(ownExits('watchdog.ts', "const WATCHDOG = 'process.exit(0)';\nexitWith(PASSED);")).toEqual([]);
  });

  it('sees a number in any branch of the code handed over, and none in a condition', () => {
    const exits = (line: string) => ownExits('command.ts', line).length;
    expect(exits('exitWith(failed ? 1 : PASSED);')).toBe(1);
    expect(exits('exitCodeOf([FAILED, ...(lost ? [6] : [])]);')).toBe(1);
    expect(exits('exitNow(code ?? 0);')).toBe(1);
    expect(exits('exitWith(ids.length === 0 ? NO_VERDICT : PASSED);')).toBe(0);
  });
});
