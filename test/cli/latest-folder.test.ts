// A `reports/latest` an artifact cache restored as a folder with content: conformance and load (k6) keep their exit
// code and summary, leave the folder as it is and say where this run's reports are, through the real binary.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { harness, tmp } from './run.ts';

describe('a reports/latest that is a folder with content, as an artifact cache restores the link', () => {
  const reportDir = () => {
    const reports = join(tmp(), 'reports');
    mkdirSync(join(reports, 'latest'), { recursive: true });
    writeFileSync(join(reports, 'latest', 'conformance.json'), 'an earlier run');
    return reports;
  };
  const expectLeftAsItIs = (reports: string, stderr: string) => {
    expect(readFileSync(join(reports, 'latest', 'conformance.json'), 'utf8')).toBe('an earlier run');
    const line = stderr.split('\n').find((l) => l.includes('latest'));
    expect(line).toMatch(
      new RegExp(
        `^harness: ${reports}/latest is a folder, not the link harness keeps: left as it is; this run's reports are in ${reports}/\\d{4}-`,
      ),
    );
  };

  it('conformance keeps its exit code and summary, and leaves the folder as it is', async () => {
    const reports = reportDir();
    const result = await harness(
      ['conformance', '--only', 'AUTH-TOKEN-FORM', '--report-dir', reports],
      {},
      60_000,
    );
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/\nsummary: 1 check in .*, 1 PASS\n$/);
    expectLeftAsItIs(reports, result.stderr);
  });

  it('load keeps its exit code and summary, and leaves the folder as it is', {
    timeout: 120_000,
  }, async () => {
    const reports = reportDir();
    const result = await harness(['load', '--scenario', 'rerun', '--report-dir', reports], {}, 110_000);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/\nsummary: 3 phases: 3 PASS\n$/);
    expectLeftAsItIs(reports, result.stderr);
  });
});
