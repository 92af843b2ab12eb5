// `harness replay --failed [RUN]`: a run's FAILs replayed against the server that drew them are still failing, and
// against the faithful one fixed; the exit code says which, and `latest` stays at the run replayed.
import { mkdirSync, readlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { markReplayed } from '../../src/cli/replay-failed.ts';
import type { Grade } from '../../src/runner/grades.ts';
import type { CheckResult, RunReport } from '../../src/runner/types.ts';
import { gradePainter } from '../../src/terminal/colour.ts';
import { harness, tmp } from './run.ts';

/** The three checks of the endpoints that take an issued id: each FAILs when the server forgets the ids it issued. */
const ID_ENDPOINTS = [
  'ENDPOINT-GET-API-TRANSACTIONS-BATCH-STATUS-BATCH-ID',
  'ENDPOINT-GET-API-TRANSACTIONS-BATCH-VALIDATION-RESULT-BATCH-ID',
  'ENDPOINT-GET-API-RULES-STATUS-EXECUTION-ID',
];
const FAULT = ['--fault', 'issued-ids-unknown'];

const markLines = (stdout: string, mark: string) =>
  stdout.split('\n').filter((line) => line.startsWith(`${mark.padEnd('still failing'.length)}  `));

describe('harness replay --failed against the embedded reference server', () => {
  it("marks a run's three FAILs still failing against the same fault and fixed against the faithful server", async () => {
    const reportDir = tmp();
    const run = await harness([
      'conformance',
      ...FAULT,
      '--only',
      ID_ENDPOINTS.join(','),
      '--report-dir',
      reportDir,
    ]);
    expect(run.status, run.stderr).toBe(1);
    const replayedRun = readlinkSync(join(reportDir, 'latest'));

    const again = await harness(['replay', '--failed', ...FAULT, '--report-dir', reportDir]);
    expect(again.status, again.stderr).toBe(1);
    expect(markLines(again.stdout, 'still failing')).toEqual(
      ID_ENDPOINTS.map((id) => `still failing  ${id}: FAIL, was FAIL`),
    );
    expect(again.stdout).toMatch(/^replayed 3 checks: 3 still failing, 0 fixed, 0 not verified \(exit 1\)$/m);
    // The replay wrote its own reports but left `latest` at the run it replayed: the next --failed reads that again.
    expect(readlinkSync(join(reportDir, 'latest'))).toBe(replayedRun);

    const fixed = await harness(['replay', '--failed', join(reportDir, replayedRun), '--report-dir', tmp()]);
    expect(fixed.status, fixed.stderr).toBe(0);
    expect(markLines(fixed.stdout, 'fixed')).toEqual(
      ID_ENDPOINTS.map((id) => `fixed          ${id}: PASS, was FAIL`),
    );
    expect(fixed.stdout).toMatch(/^replayed 3 checks: 0 still failing, 3 fixed, 0 not verified \(exit 0\)$/m);
  }, 120_000);

  it('says there is nothing to replay, exit 0, when the run passed everything it ran', async () => {
    const reportDir = tmp();
    const run = await harness(['conformance', '--only', ID_ENDPOINTS[0]!, '--report-dir', reportDir]);
    expect(run.status, run.stderr).toBe(0);
    const replayed = await harness(['replay', '--failed', '--report-dir', reportDir]);
    expect(replayed.status, replayed.stderr).toBe(0);
    expect(replayed.stdout).toMatch(
      /has no FAIL, WARN or INCONCLUSIVE check: nothing to replay \(exit 0\)\n$/,
    );
  }, 60_000);

  it('refuses, with one line and exit 2 before any run, a folder with no report, a check ID with --failed, or neither', async () => {
    const empty = tmp();
    mkdirSync(empty, { recursive: true });
    const cases = [
      [['replay', '--failed', empty], new RegExp(`^harness: ${empty}: holds no conformance\\.json`)],
      [
        ['replay', 'AUTH-TOKEN-TYPE', '--failed'],
        /^harness: replay: a check ID \(AUTH-TOKEN-TYPE\) or --failed, not both/,
      ],
      [['replay'], /^harness: replay: name a check ID, or give --failed/],
    ] as const;
    for (const [args, line] of cases) {
      const refused = await harness([...args, '--report-dir', tmp()]);
      expect(refused.status, refused.stderr).toBe(2);
      expect(refused.stdout).toBe('');
      expect(refused.stderr).toMatch(line);
      expect(refused.stderr.trimEnd().split('\n')).toHaveLength(1);
    }
  });

  it('refuses a conformance.json that is not a report harness wrote, naming the file', async () => {
    const dir = tmp();
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'conformance.json'), '{"checks": "\\u001b[31m"}');
    const refused = await harness(['replay', '--failed', dir, '--report-dir', tmp()]);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toMatch(/^harness: \S+conformance\.json: not a harness conformance report/);
    expect(refused.stderr).not.toContain('\u001b');
  });
});

describe('markReplayed', () => {
  const check = (id: string, grade: Grade) => ({ id, grade }) as CheckResult;
  const replayed = (...checks: CheckResult[]) => ({ checks }) as unknown as RunReport;
  // Colourless, as on a pipe: the words are what is asserted.
  const paint = gradePainter({ isTTY: false });

  it('marks a WARN still WARN still failing, an undecided or missing check not verified, and exits by the table', () => {
    const before = [check('A', 'FAIL'), check('B', 'WARN'), check('C', 'INCONCLUSIVE'), check('D', 'FAIL')];
    const marked = markReplayed(
      before,
      replayed(check('A', 'PASS'), check('B', 'WARN'), check('C', 'INCONCLUSIVE')),
      1,
      paint,
    );
    expect(marked.lines.map((line) => line.text)).toEqual([
      'fixed          A: PASS, was FAIL',
      'still failing  B: WARN, was WARN',
      'not verified   C: INCONCLUSIVE, was INCONCLUSIVE',
      'not verified   D: not run, was FAIL',
      'replayed 4 checks: 1 still failing, 1 fixed, 2 not verified (exit 1)',
    ]);
    expect(marked.exitCode).toBe(1);
  });

  it('exits 5 when nothing still fails but something was not verified, and 0 when everything is fixed', () => {
    expect(markReplayed([check('A', 'FAIL')], replayed(check('A', 'INCONCLUSIVE')), 5, paint).exitCode).toBe(
      5,
    );
    expect(markReplayed([check('A', 'FAIL')], replayed(check('A', 'INFO')), 0, paint).exitCode).toBe(0);
    // The run's own code counts too: reports it could not write (6) are no pass.
    expect(markReplayed([check('A', 'FAIL')], replayed(check('A', 'PASS')), 6, paint).exitCode).toBe(6);
  });
});
