// A fault of harness itself is graded ERROR, never as a verdict on the server: the run exits 4 and every report
// shows the check apart from the server's grades. Two checks with bugs are added to the real suite: one throws, one
// grades a WARN its failsWith does not declare.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { tmp } from './run.ts';

vi.mock('../../conformance/index.ts', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../conformance/index.ts')>();
  const { warn } = await import('../../src/runner/grades.ts');
  const buggy = {
    title: 'A check with a bug',
    clause: '§4',
    quote: 'All API endpoints require the bearer token described in Authentication.',
    tags: ['buggy'],
    lane: 'buggy',
    required: false,
    plan: () => [],
  } as const;
  return {
    allChecks: (target: Parameters<typeof original.allChecks>[0]) => [
      ...original.allChecks(target),
      {
        ...buggy,
        id: 'HARNESS-THROWS',
        failsWith: ['FAIL'],
        run: async () => (JSON.parse('{}') as { items: string[] }).items.join(', '),
      },
      {
        ...buggy,
        id: 'HARNESS-UNDECLARED-WARN',
        failsWith: [],
        run: async () => warn('an undeclared warning'),
      },
    ],
  };
});

// npm test's workers keep modules between files (isolate: false): the command may already be loaded with the real
// suite, so harness is loaded afresh here, every module of it after the mock above that stands in for the suite.
vi.resetModules();
const { conformanceCommand, parsedOptions } = await import('../../src/cli/commands.ts');
const { runConformanceCommand } = await import('../../src/cli/conformance.ts');
const { conformanceErrors, REPORT_FILES } = await import('../../src/report/write.ts');

describe('a check with a bug', () => {
  it('is graded ERROR: exit 4, and JSON, JUnit, HTML and Markdown tell it apart', async () => {
    const reportDir = tmp();
    const stdout = vi.spyOn(console, 'log').mockImplementation(() => {});
    const stderr = vi.spyOn(console, 'error').mockImplementation(() => {});
    const result = await runConformanceCommand(
      parsedOptions(conformanceCommand, ['--only', 'buggy,AUTH-TOKEN-FORM', '--report-dir', reportDir]),
    );
    expect(result.exitCode).toBe(4);
    expect(stderr).toHaveBeenCalledWith(
      'harness: a fault of harness itself (ERROR) in HARNESS-THROWS, HARNESS-UNDECLARED-WARN: no verdict on the server there',
    );
    const grades = Object.fromEntries(result.report!.checks.map((c) => [c.id, [c.grade, c.message]]));
    expect(grades['AUTH-TOKEN-FORM']?.[0]).toBe('PASS');
    expect(grades['HARNESS-THROWS']).toEqual([
      'ERROR',
      expect.stringMatching(
        /^harness error: TypeError: Cannot read properties of undefined .*harness-error\.test\.ts/,
      ),
    ]);
    expect(grades['HARNESS-UNDECLARED-WARN']).toEqual([
      'ERROR',
      'harness error: HARNESS-UNDECLARED-WARN graded WARN, which its failsWith does not list: an undeclared warning',
    ]);
    expect(result.report!.counts.ERROR).toBe(2);
    expect(stdout).toHaveBeenLastCalledWith(
      expect.stringMatching(
        /^summary: \d+ checks in [\d.]+ s: 0 FAIL, .*; 2 ERROR of harness itself, no verdict$/,
      ),
    );
    expect(result.report!.certifiable).toBe(false);

    const file = (format: keyof typeof REPORT_FILES) =>
      readFile(join(result.dir!, REPORT_FILES[format]), 'utf8');
    expect(conformanceErrors(JSON.parse(await file('json')))).toEqual([]);
    const junit = await file('junit');
    expect(junit.match(/<error message="harness error: [^"]*" type="ERROR">/g)).toHaveLength(2);
    expect(junit).toMatch(/<testsuites name="harness conformance" tests="\d+" failures="0" errors="2"/);
    expect(await file('html')).toMatch(
      /Harness error in 2 checks \(a fault of harness, no verdict on the server\): <a href="#check-HARNESS-THROWS">/,
    );
    expect(await file('markdown')).toMatch(/^## 🛑 harness conformance: ERROR \(a fault of harness itself/);
  });
});
