// What `harness load` prints, as a user reads it in a terminal or a CI log: each verdict once, report paths
// absolute, a line per phase as it starts, and advice when a phase decided nothing.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { BIN, type Finished, tmp } from './run.ts';

const SHORT = ['--scenario', 'transactions', '--duration', '3s', '--limit', 'transaction-event=100/second'];

/** Run from a fresh directory with a relative --report-dir, where a path could be shortened. */
const loadIn = (cwd: string, args: string[]): Promise<Finished> =>
  new Promise((done) => {
    execFile(process.execPath, [BIN, 'load', ...args], { cwd, timeout: 120_000 }, (error, stdout, stderr) => {
      done({ status: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr });
    });
  });

describe('harness load output', () => {
  let run: Finished;
  beforeAll(async () => {
    run = await loadIn(tmp(), [...SHORT, '--report-dir', 'reports']);
  }, 120_000);

  it('prints each phase verdict once (the CLI judges merged instances; k6 stays quiet)', () => {
    expect(run.status).toBe(0);
    const all = `${run.stdout}\n${run.stderr}`;
    for (const phase of ['within_transactions', 'over_transactions', 'knee_transactions']) {
      const verdict = new RegExp(`^(\\[k6\\] )?(PASS|WARN|FAIL|INCONCLUSIVE) +${phase} `);
      const lines = all.split('\n').filter((line) => verdict.test(line));
      expect(lines, phase).toHaveLength(1);
    }
  });

  it('prints the reports as one absolute folder and the page to open, as conformance does', () => {
    const [, folder] = /^reports: (\S+\/) \(open index\.html\)$/m.exec(run.stdout) ?? [];
    expect(folder, run.stdout).toBeDefined();
    expect(isAbsolute(folder!)).toBe(true);
    expect(existsSync(join(folder!, 'index.html'))).toBe(true);
  });

  it('says in a CI log (no terminal) when each phase starts', () => {
    for (const phase of ['within_transactions', 'over_transactions', 'knee_transactions']) {
      expect(run.stderr).toMatch(new RegExp(`^load: phase ${phase} started \\(\\d of 3, `, 'm'));
    }
  });
});
