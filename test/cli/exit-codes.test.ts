// One rule picks the exit code of a run made of parts, for conformance, load and certify alike: a harness fault, then
// a FAIL, then reports not written (6), then an unreachable target, then no verdict (5), then a pass. No verdict is
// never a pass, nor are lost reports.
import { describe, expect, it } from 'vitest';
import type { LoadGrade } from '../../core/verdict.ts';
import {
  EXIT_CODES_HELP,
  exitCodeOf,
  FAILED,
  HARNESS_ERROR,
  NO_VERDICT,
  noVerdictLine,
  PASSED,
  REPORTS_NOT_WRITTEN,
  TARGET_UNREACHABLE,
} from '../../src/cli/exit-codes.ts';
import { loadExitCode } from '../../src/cli/load.ts';
import { harness } from './run.ts';

describe('noVerdictLine', () => {
  it('says to retry once the target can be measured, unless told that harness fell short', () => {
    expect(noVerdictLine('checks', ['LIMIT-ENFORCED-RULES-SCHEDULE'])).toMatch(
      /: nothing failed, and nothing was verified there either; retry once the target can be measured$/,
    );
    const starved = noVerdictLine('phases', ['over_transactions'], 'harness fell short, not the target');
    expect(starved).toMatch(/either; harness fell short, not the target$/);
    expect(starved).not.toContain('retry once the target');
  });
});

describe('exitCodeOf', () => {
  it.each([
    [[], PASSED],
    [[PASSED, PASSED], PASSED],
    [[PASSED, NO_VERDICT], NO_VERDICT],
    [[NO_VERDICT, FAILED], FAILED],
    [[FAILED, TARGET_UNREACHABLE], FAILED],
    [[TARGET_UNREACHABLE, NO_VERDICT], TARGET_UNREACHABLE],
    [[NO_VERDICT, FAILED, HARNESS_ERROR], HARNESS_ERROR],
    [[HARNESS_ERROR, 2], 2],
    [[PASSED, 130], 130],
    [[PASSED, REPORTS_NOT_WRITTEN], REPORTS_NOT_WRITTEN],
    [[NO_VERDICT, REPORTS_NOT_WRITTEN], REPORTS_NOT_WRITTEN],
    [[REPORTS_NOT_WRITTEN, TARGET_UNREACHABLE], REPORTS_NOT_WRITTEN],
    [[REPORTS_NOT_WRITTEN, FAILED], FAILED],
    [[HARNESS_ERROR, REPORTS_NOT_WRITTEN], HARNESS_ERROR],
  ])('%j gives %i', (codes, expected) => {
    expect(exitCodeOf(codes)).toBe(expected);
  });
});

describe('loadExitCode', () => {
  const phases = (...grades: LoadGrade[]) => grades.map((grade) => ({ grade }));

  it('is no verdict (5) when a phase is INCONCLUSIVE and none FAILs, --strict or not', () => {
    expect(loadExitCode(phases('PASS', 'INCONCLUSIVE'), false, false)).toBe(NO_VERDICT);
    expect(loadExitCode(phases('PASS', 'INCONCLUSIVE'), false, true)).toBe(NO_VERDICT);
  });

  it('lets a FAIL, or a WARN with --strict, outrank an INCONCLUSIVE phase, and a k6 fault outrank both', () => {
    expect(loadExitCode(phases('INCONCLUSIVE', 'FAIL'), false, false)).toBe(FAILED);
    expect(loadExitCode(phases('INCONCLUSIVE', 'WARN'), false, true)).toBe(FAILED);
    expect(loadExitCode(phases('INCONCLUSIVE', 'FAIL'), true, false)).toBe(HARNESS_ERROR);
  });

  it('is no verdict (5), never a pass, when there is no phase to judge', () => {
    expect(loadExitCode([], false, false)).toBe(NO_VERDICT);
    expect(loadExitCode([], false, true)).toBe(NO_VERDICT);
  });

  it('passes WARN without --strict', () => {
    expect(loadExitCode(phases('PASS', 'WARN'), false, false)).toBe(PASSED);
    expect(loadExitCode(phases('PASS', 'WARN'), false, true)).toBe(FAILED);
  });
});

describe('--help', () => {
  it.each(['conformance', 'load', 'certify'])(
    'of %s lists exit codes 5, no verdict, and 6, reports not written',
    async (command) => {
      const help = await harness([command, '--help'], {}, 30_000);
      expect(help.status).toBe(0);
      expect(help.stdout).toContain(EXIT_CODES_HELP.trim());
      expect(help.stdout).toMatch(/^ {2}5 {2}no verdict: /m);
      expect(help.stdout).toMatch(
        /^ {2}6 {2}the verdicts are decided and printed, but the reports could not be written/m,
      );
    },
  );
});
