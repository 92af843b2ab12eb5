// One rule picks the exit code of a run made of parts, for conformance, load and certify alike: a harness fault, then
// a FAIL, then reports not written (6), then an unreachable target, then no verdict (5), then a pass. No verdict is
// never a pass, nor are lost reports.
import { describe, expect, it } from 'vitest';
import type { LoadGrade } from '../../core/verdict.ts';
import {
  completed,
  EXIT_CODES_HELP,
  type ExitCode,
  exitCodeOf,
  FAILED,
  HARNESS_ERROR,
  NO_VERDICT,
  noVerdictLine,
  PASSED,
  REPORTS_NOT_WRITTEN,
  STOP_SIGNALS,
  STOPPED_BY_SIGINT,
  STOPPED_BY_SIGTERM,
  TARGET_UNREACHABLE,
  USAGE_ERROR,
} from '../../src/cli/exit-codes.ts';
import { endRun } from '../../src/cli/run-end.ts';
import { harness, tmp } from './run.ts';

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
  it.each<[ExitCode[], ExitCode]>([
    [[], PASSED],
    [[PASSED, PASSED], PASSED],
    [[PASSED, NO_VERDICT], NO_VERDICT],
    [[NO_VERDICT, FAILED], FAILED],
    [[FAILED, TARGET_UNREACHABLE], FAILED],
    [[TARGET_UNREACHABLE, NO_VERDICT], TARGET_UNREACHABLE],
    [[NO_VERDICT, FAILED, HARNESS_ERROR], HARNESS_ERROR],
    [[HARNESS_ERROR, USAGE_ERROR], USAGE_ERROR],
    [[PASSED, STOPPED_BY_SIGINT], STOPPED_BY_SIGINT],
    [[USAGE_ERROR, HARNESS_ERROR, FAILED, STOPPED_BY_SIGTERM], STOPPED_BY_SIGTERM],
    [[PASSED, REPORTS_NOT_WRITTEN], REPORTS_NOT_WRITTEN],
    [[NO_VERDICT, REPORTS_NOT_WRITTEN], REPORTS_NOT_WRITTEN],
    [[REPORTS_NOT_WRITTEN, TARGET_UNREACHABLE], REPORTS_NOT_WRITTEN],
    [[REPORTS_NOT_WRITTEN, FAILED], FAILED],
    [[HARNESS_ERROR, REPORTS_NOT_WRITTEN], HARNESS_ERROR],
  ])('%j gives %i', (codes, expected) => {
    expect(exitCodeOf(codes)).toBe(expected);
  });
});

describe('the signals in the exit table', () => {
  it("give the shell's 128 + signal", () => {
    expect(Object.fromEntries(STOP_SIGNALS)).toEqual({ SIGHUP: 129, SIGINT: 130, SIGTERM: 143 });
  });

  it('share one line of --help', () => {
    expect(EXIT_CODES_HELP).toMatch(/^ {2}129, 130, 143 {2}stopped by SIGHUP, SIGINT, SIGTERM: /m);
    expect(EXIT_CODES_HELP).toMatch(
      /^Exit codes \(when several apply, the first of 2, 4, 1, 6, 3, 5 wins\):$/m,
    );
  });
});

describe('completed', () => {
  it("is a run that judged all it ran and wrote its reports (certify's load), and nothing else", () => {
    const all = [
      PASSED,
      FAILED,
      NO_VERDICT,
      USAGE_ERROR,
      TARGET_UNREACHABLE,
      HARNESS_ERROR,
      REPORTS_NOT_WRITTEN,
    ];
    expect(all.filter(completed)).toEqual([PASSED, FAILED, NO_VERDICT]);
    expect(completed(STOPPED_BY_SIGINT)).toBe(false);
  });
});

describe('endRun', () => {
  const phases = (...grades: LoadGrade[]) => grades.map((grade) => ({ grade }));
  const undecided = (graded: readonly { grade: string }[]) =>
    graded.flatMap((p, i) => (p.grade === 'INCONCLUSIVE' ? [`phase ${i}`] : []));
  const quiet = () => {};
  const end = (graded: ReturnType<typeof phases>, strict: boolean, faultBeside = false) =>
    endRun(
      {
        noun: 'phases',
        graded,
        strict,
        faultBeside,
        unverified: undecided(graded),
        saved: { exitCode: PASSED },
      },
      quiet,
    );

  it('is no verdict (5) when a phase is INCONCLUSIVE and none FAILs, --strict or not', () => {
    expect(end(phases('PASS', 'INCONCLUSIVE'), false)).toBe(NO_VERDICT);
    expect(end(phases('PASS', 'INCONCLUSIVE'), true)).toBe(NO_VERDICT);
  });

  it('lets a FAIL, or a WARN with --strict, outrank an INCONCLUSIVE phase, and a k6 fault outrank both', () => {
    expect(end(phases('INCONCLUSIVE', 'FAIL'), false)).toBe(FAILED);
    expect(end(phases('INCONCLUSIVE', 'WARN'), true)).toBe(FAILED);
    expect(end(phases('INCONCLUSIVE', 'FAIL'), false, true)).toBe(HARNESS_ERROR);
  });

  it('is no verdict (5), never a pass, when there is nothing to judge', () => {
    expect(end([], false)).toBe(NO_VERDICT);
    expect(end([], true)).toBe(NO_VERDICT);
  });

  it('passes WARN without --strict', () => {
    expect(end(phases('PASS', 'WARN'), false)).toBe(PASSED);
    expect(end(phases('PASS', 'WARN'), true)).toBe(FAILED);
  });

  it('judges a check a baseline excuses by the baseline alone, and says on stderr why the run fails or decides nothing', () => {
    const said: string[] = [];
    const exit = endRun(
      {
        noun: 'checks',
        graded: [{ grade: 'FAIL', excused: true }, { grade: 'PASS' }],
        strict: false,
        failures: ['harness: --require-certifiable: ...'],
        unverified: [],
        saved: { exitCode: PASSED },
      },
      (line) => said.push(line.text),
    );
    expect(exit).toBe(FAILED);
    expect(said).toEqual(['harness: --require-certifiable: ...']);
    const excusedOnly = endRun(
      {
        noun: 'checks',
        graded: [{ grade: 'FAIL', excused: true }],
        strict: false,
        unverified: [],
        saved: { exitCode: PASSED },
      },
      quiet,
    );
    expect(excusedOnly).toBe(PASSED);
    const lost = endRun(
      {
        noun: 'checks',
        graded: [{ grade: 'PASS' }],
        strict: false,
        unverified: [],
        saved: { exitCode: REPORTS_NOT_WRITTEN },
      },
      quiet,
    );
    expect(lost).toBe(REPORTS_NOT_WRITTEN);
  });
});

describe('a conformance run that leaves out every check', () => {
  it('is no verdict (5), as a load run of no phase is: it verified nothing', async () => {
    const tags = 'token,bearer,limits,endpoints,limiter,sharing,observability';
    const buckets =
      'batch-status,batch-upload-url,batch-validation-result,rules-execute,rules-rerun,rules-schedule';
    const run = await harness(
      ['conformance', '--skip', `${tags},${buckets},rules-status,transaction-event`, '--report-dir', tmp()],
      {},
      30_000,
    );
    expect(run.stdout).toMatch(/^summary: 0 checks in /m);
    expect(run.stderr).toMatch(/^harness: no verdict \(exit 5\): not one check to judge/m);
    expect(run.status).toBe(NO_VERDICT);
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
