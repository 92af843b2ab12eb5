// harness compare and harness trend from the command line, on real runs of the embedded server: a run compared
// with itself exits 0, a faithful run against a fault run exits 1 naming the check, a fault run against one that
// skipped the failing check exits 5 (no verdict), bad input exits 2 in one line,
// and trend writes its page over the runs.
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { harness } from './run.ts';

const reports = mkdtempSync(join(tmpdir(), 'harness-compare-cli-'));
const runs: string[] = [];

beforeAll(async () => {
  // The token checks only: seconds each, and AUTH-TOKEN-TYPE is among them. Then the fault again with the failing
  // check skipped, as a pull request hiding a regression would run it.
  const FAULT = ['--fault', 'token-type-lowercase'];
  for (const [extra, status] of [
    [[], 0],
    [FAULT, 1],
    [[...FAULT, '--skip', 'AUTH-TOKEN-TYPE'], 0],
  ] as const) {
    const run = await harness(['conformance', '--only', 'token', '--report-dir', reports, ...extra]);
    expect(run.status, run.stderr).toBe(status);
  }
  runs.push(
    ...readdirSync(reports)
      .filter((name) => /^\d{4}-/.test(name))
      .sort()
      .map((name) => join(reports, name)),
  );
}, 120_000);

describe('harness compare', () => {
  it('exits 0 for a run compared with itself', async () => {
    const out = join(reports, 'same');
    const run = await harness(['compare', runs[0]!, runs[0]!, '--out', out]);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout.trim().split('\n').at(-1)).toMatch(
      /^compare: 0 verdicts worse, 0 no longer verified, 0 otherwise changed/,
    );
    expect(readdirSync(out).sort()).toEqual(['compare.html', 'compare.json', 'compare.md']);
  });

  it('exits 1 for a faithful run against a fault run, naming the check in stdout and the Markdown', async () => {
    const out = join(reports, 'worse');
    const run = await harness(['compare', runs[0]!, join(runs[1]!, 'conformance.json'), '--out', out]);
    expect(run.status, run.stderr).toBe(1);
    expect(run.stdout).toMatch(/^worse {6}check AUTH-TOKEN-TYPE: PASS -> FAIL: token_type is "bearer"/m);
    expect(readFileSync(join(out, 'compare.md'), 'utf8')).toContain(
      '| worse | `AUTH-TOKEN-TYPE` | PASS | FAIL |',
    );
  });

  it('exits 5 (no verdict) for a failing run against one that skipped the failing check', async () => {
    const run = await harness(['compare', runs[1]!, runs[2]!, '--out', join(reports, 'skipped')]);
    expect(run.status, run.stderr).toBe(5);
    expect(run.stdout).toMatch(/^unverified check AUTH-TOKEN-TYPE: FAIL -> (SKIP|absent): /m);
    expect(run.stdout.trim().split('\n').at(-1)).toMatch(
      /^compare: 0 verdicts worse, 1 no longer verified, /,
    );
  });

  it('exits 2 with one line when an input is no run', async () => {
    const run = await harness(['compare', runs[0]!, join(reports, 'nowhere')]);
    expect(run.status).toBe(2);
    expect(run.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/^harness: .*nowhere: cannot be read \(ENOENT\)$/),
    ]);
  });
});

describe('harness trend', () => {
  it('leaves --only runs out by default, and says how to show them', async () => {
    const run = await harness(['trend', reports]);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain(
      'left out: 3 replay and --only runs, which grade only some checks (harness trend --include-partial shows them)',
    );
  });

  it('writes one page over every run of the folder, newest first, with --include-partial', async () => {
    const run = await harness(['trend', reports, '--include-partial']);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout.trim().split('\n').at(-1)).toBe(
      'trend: 3 conformance runs and 0 load runs, 0 left out',
    );
    const page = readFileSync(join(reports, 'trend.html'), 'utf8');
    expect(page).toMatch(
      /<td class="id">AUTH-TOKEN-TYPE<\/td><td class="(SKIP">SKIP|none">–)<\/td><td class="FAIL">FAIL<\/td><td class="PASS">PASS<\/td>/,
    );
  });
});
