// Every limit FAIL a fault of the embedded server draws is reproduced by the command its report prints
// (`harness replay ID --fault NAME`, the embedded server being gone once the run ends), run by a shell as printed:
// the replay FAILs the same check again and shows the answers that prove it. The by-hand reproductions (curl):
// test/runner/reproductions.test.ts.
import { readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CheckResult } from '../../src/runner/types.ts';
import { REPLAYED } from '../runner/fault-reproductions.ts';
import { asPrinted, harness, SIDE_BY_SIDE, tmp } from './run.ts';

/** The FAILs of a conformance run against the embedded server with `fault`, on the checks of `only`. */
const failsOf = async (fault: string, only: readonly string[]): Promise<CheckResult[]> => {
  const reportDir = tmp();
  const run = await harness([
    'conformance',
    '--fault',
    fault,
    '--only',
    only.join(','),
    '--report-dir',
    reportDir,
  ]);
  expect(run.status, run.stderr).toBe(1);
  const report = JSON.parse(
    readFileSync(join(realpathSync(join(reportDir, 'latest')), 'conformance.json'), 'utf8'),
  );
  return report.checks.filter((c: CheckResult) => c.grade === 'FAIL');
};

/**
 * The replay's grade line and output. Once more where it came out INCONCLUSIVE: a probe starved of CPU on a loaded
 * runner can send its window-end burst late and prove nothing (test/conformance/faults.test.ts says the same).
 */
const replayed = async (command: string, id: string) => {
  for (let attempt = 1; ; attempt++) {
    const run = await asPrinted(`${command} --report-dir ${tmp()}`);
    const grade = new RegExp(`^replayed ${id} \\(§[^)]+\\): (\\w+)$`, 'm').exec(run.stdout)?.[1];
    if (grade !== 'INCONCLUSIVE' || attempt === 2) return { ...run, grade };
  }
};

describe.concurrent('a limit FAIL, reproduced by the replay its report prints', () => {
  it.each(Object.entries(REPLAYED))(
    '%s: the replay FAILs the check again, showing its answers',
    async (fault, only) => {
      const failed = await failsOf(fault, only!);
      expect(failed.length, fault).toBeGreaterThan(0);
      for (const check of failed) {
        const command = `npx --no-install harness replay ${check.id} --fault ${fault}`;
        expect(check.repro).toEqual([command]);
        const run = await replayed(command, check.id);
        expect(run.grade, `${check.id}\n${run.stdout}\n${run.stderr}`).toBe('FAIL');
        expect(run.status).toBe(1);
        // Each request the verdict cites, then its answer: the status, and the headers or body under it.
        expect(run.stdout).toMatch(/^ {4}('[^']+' )?(GET|POST) http:\S+ → (\d{3}|no answer)[^\n]*\n {6}\S/m);
      }
    },
    SIDE_BY_SIDE.timeout,
  );
});
