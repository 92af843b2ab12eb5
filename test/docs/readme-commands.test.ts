// README.md is a front page a newcomer finishes: 300 lines at most, the rest in docs/. Every harness command it prints
// names a command and flags harness has, and the first run's two commands exit as the README says, run as printed.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { asPrinted, harness, SIDE_BY_SIDE } from '../cli/run.ts';

const README = readFileSync(join(import.meta.dirname, '../../README.md'), 'utf8');
const INVOCATION = 'npx --no-install harness ';

/** Each harness invocation of the sh blocks of `markdown`, comments cut, `;` and `&&` chains split. */
const harnessCommands = (markdown: string): string[] =>
  [...markdown.matchAll(/^```sh\n([\s\S]*?)^```/gm)]
    .flatMap(([, block]) => block!.split('\n'))
    .map((line) => line.replace(/\s+#.*$/, ''))
    .flatMap((line) => line.split(/;|&&/))
    .map((part) => part.trim())
    .filter((part) => part.startsWith(INVOCATION))
    .map((part) => part.slice(INVOCATION.length));

/** The flags of `command` its `--help` does not list. */
const unknownFlags = (command: string, help: string): string[] =>
  command
    .split(/\s+/)
    .filter((word) => word.startsWith('--'))
    .filter((flag) => !new RegExp(`(^|[\\s,])${flag}([\\s=<[]|$)`, 'm').test(help));

describe('README.md', () => {
  it('stays a front page: 300 lines or fewer', () => {
    expect(README.split('\n').length).toBeLessThanOrEqual(300);
  });

  const commands = [...new Set(harnessCommands(README))];

  it('prints harness commands to check', () => {
    expect(commands.length).toBeGreaterThanOrEqual(8);
  });

  describe.concurrent('names only commands and flags harness has', SIDE_BY_SIDE, () => {
    it.each(commands)('harness %s', async (command) => {
      const { status, stdout } = await harness([command.split(' ')[0]!, '--help']);
      expect(status).toBe(0);
      expect(unknownFlags(command, stdout)).toEqual([]);
    });
  });

  it('would see a flag harness does not have', () => {
    expect(
      unknownFlags(
        'conformance --profile x --dry-rn',
        '  --profile <file>  a profile\n  --dry-run  sends nothing',
      ),
    ).toEqual(['--dry-rn']);
  });

  // The passing run's exit 0 is not asserted here: on a starved machine a faithful run may be INCONCLUSIVE (exit 5),
  // which the tests of faithful runs allow for where harness names its shortfall. A FAIL outranks that: exit 1 holds.
  it('has the first run, whose broken rule exits 1 as printed', SIDE_BY_SIDE, async () => {
    const firstRun = commands.filter((command) => /^conformance( --fault \S+)?$/.test(command));
    expect(firstRun).toEqual(['conformance', 'conformance --fault token-type-lowercase']);
    const { status, stdout } = await asPrinted(`${INVOCATION}conformance --fault token-type-lowercase`);
    expect(status).toBe(1);
    expect(stdout).toMatch(/^summary: \d+ checks in .*\b1 FAIL\b/m);
  });
});
