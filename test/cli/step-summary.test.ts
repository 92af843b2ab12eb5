// $GITHUB_STEP_SUMMARY: where a GitHub job has a summary page, conformance and load append their verdicts to it,
// after what earlier steps wrote, failures first; where appending fails, one stderr line and the run stands.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { judge } from '../../core/judged.ts';
import { finishLoad, loadStream } from '../../src/cli/load.ts';
import { judgedRun } from '../../src/report/load-reports.ts';
import { NETWORKS, simulate } from '../load/simulate.ts';
import { harness, tmp } from './run.ts';

/** What GitHub sets in a job: the run's page, where its artifacts are. */
const GITHUB_RUN = {
  GITHUB_SERVER_URL: 'https://github.com',
  GITHUB_REPOSITORY: 'acme/gateway',
  GITHUB_RUN_ID: '42',
};

const summaryFile = () => {
  const file = join(tmp(), 'step-summary.md');
  writeFileSync(file, 'an earlier step\n');
  return file;
};

/** The transactions scenario judged against a simulated limiter enforcing `enforced` times the limit. */
const judged = (enforced: number) =>
  judgedRun(
    judge(simulate({ kind: 'aligned', network: NETWORKS.lan, enforced }, { scenarios: ['transactions'] })),
    Date.now(),
    { label: 'transactions', runMs: 1, properties: {}, strict: false },
  );

afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

describe('$GITHUB_STEP_SUMMARY', () => {
  it('gets a conformance run appended: the marked verdict, the link to the artifacts, the FAIL, then the summary', async () => {
    const file = summaryFile();
    const run = await harness(
      ['conformance', '--fault', 'token-type-lowercase', '--only', 'token', '--report-dir', tmp()],
      { GITHUB_STEP_SUMMARY: file, ...GITHUB_RUN },
    );
    expect(run.status, run.stderr).toBe(1);
    const page = readFileSync(file, 'utf8');
    expect(page.startsWith('an earlier step\n## ❌ harness conformance: FAIL\n\n**Coverage:** ')).toBe(true);
    expect(page).toContain(
      "\n\nReports and evidence: [this run's artifacts](https://github.com/acme/gateway/actions/runs/42#artifacts)\n\n",
    );
    expect(page).toMatch(/^\| ❌ FAIL \| `AUTH-TOKEN-TYPE` /m);
    expect(page).toContain('**Reproduce `AUTH-TOKEN-TYPE`:**');
    expect(page.indexOf('AUTH-TOKEN-TYPE')).toBeLessThan(page.indexOf('### Summary'));
  }, 60_000);

  it('gets a load run appended: the worst grade marked, the counts, then a row per phase, failures first', async () => {
    const file = summaryFile();
    vi.stubEnv('GITHUB_STEP_SUMMARY', file);
    // Off GitHub (as where this test may run on GitHub): no artifacts line.
    vi.stubEnv('GITHUB_RUN_ID', '');
    vi.spyOn(console, 'log').mockImplementation(() => {});
    const run = judged(1.5);
    await finishLoad(
      loadStream(tmp(), () => {}),
      run,
      { files: [], exitCodes: [] },
    );
    const rows = readFileSync(file, 'utf8').split('\n');
    expect(rows.slice(0, 6)).toEqual([
      'an earlier step',
      '## ❌ harness load: transactions',
      '',
      expect.stringMatching(new RegExp(`^summary: ${run.phases.length} phases: \\d FAIL`)),
      '',
      '| grade | phase | why |',
    ]);
    expect(rows[7]).toMatch(/^\| ❌ FAIL \| `\w+` \| .+ \|$/);
    expect(rows.filter((r) => r.startsWith('| '))).toHaveLength(run.phases.length + 1);
    expect(rows).toContainEqual(
      expect.stringMatching(new RegExp(`^summary: ${run.phases.length} phases: \\d FAIL`)),
    );
  });

  it('that cannot be appended to costs one stderr line, not the run', async () => {
    vi.stubEnv('GITHUB_STEP_SUMMARY', join(tmp(), 'no', 'such', 'folder.md'));
    vi.spyOn(console, 'log').mockImplementation(() => {});
    const err: string[] = [];
    vi.spyOn(console, 'error').mockImplementation((line: string) => void err.push(line));
    const run = judged(1);
    const result = await finishLoad(
      loadStream(tmp(), () => {}),
      run,
      { files: [], exitCodes: [] },
    );
    expect(result.files.length).toBeGreaterThan(0);
    expect(err).toEqual([
      expect.stringMatching(
        /^harness: could not add the verdicts to \$GITHUB_STEP_SUMMARY \(.*folder\.md\): ENOENT$/,
      ),
    ]);
  });
});
