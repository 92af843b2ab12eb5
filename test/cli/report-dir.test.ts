// A finished run's reporters: handed the run once the engine returns it, each says what it wrote; nothing is fetched
// back from a listener. The files go first and the job summary copies their verdict after, written or lost.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PASSED, REPORTS_NOT_WRITTEN } from '../../src/cli/exit-codes.ts';
import { reportRun } from '../../src/cli/report-dir.ts';
import { ReportWriteError } from '../../src/report/atomic.ts';
import { tmp } from './run.ts';

afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

/** A job summary holding an earlier step's line, named in $GITHUB_STEP_SUMMARY as GitHub names it. */
const jobSummaryFile = () => {
  const file = join(tmp(), 'step-summary.md');
  writeFileSync(file, 'an earlier step\n');
  vi.stubEnv('GITHUB_STEP_SUMMARY', file);
  return file;
};

describe('reportRun', () => {
  it('writes the files, then appends the verdict to the job summary, and returns the files written', async () => {
    const file = jobSummaryFile();
    const order: string[] = [];
    const saved = await reportRun(async () => {
      order.push(`files, job summary so far: ${JSON.stringify(readFileSync(file, 'utf8'))}`);
      return { dir: '/runs/1', files: ['/runs/1/conformance.json'] };
    }, '## verdict');
    expect(order).toEqual(['files, job summary so far: "an earlier step\\n"']);
    expect(readFileSync(file, 'utf8')).toBe('an earlier step\n## verdict\n\n');
    expect(saved).toEqual({ files: ['/runs/1/conformance.json'], exitCode: PASSED });
  });

  it('returns the files lost (exit 6) and still appends the verdict to the job summary', async () => {
    const file = jobSummaryFile();
    const stderr = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const saved = await reportRun(async () => {
      throw new ReportWriteError('/runs/1/conformance.html: ENOSPC', ['/runs/1/conformance.json']);
    }, '## verdict');
    expect(saved).toEqual({ files: ['/runs/1/conformance.json'], exitCode: REPORTS_NOT_WRITTEN });
    expect(readFileSync(file, 'utf8')).toBe('an earlier step\n## verdict\n\n');
    expect(stderr.mock.calls.flat().join('\n')).toContain(
      `harness: reports not written (exit ${REPORTS_NOT_WRITTEN}): /runs/1/conformance.html: ENOSPC`,
    );
  });
});
