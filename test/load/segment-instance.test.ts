// Under the k6-operator every runner gets one environment (no HARNESS_INSTANCE): a runner knows which instance it
// is from its execution segment alone, and the token turns it takes depend on that (load/lib/auth.ts).
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { instanceOfSegment } from '../../core/token-turns.ts';
import { findK6 } from '../../src/k6-driver/k6.ts';
import { tmp } from '../cli/run.ts';

const JOBS = JSON.parse(
  readFileSync(resolve(import.meta.dirname, '../fixtures/k6-operator/runner-jobs.json'), 'utf8'),
) as { runners: { command: string[] }[] };

describe('instanceOfSegment', () => {
  it('is where the segment starts in the sequence, as k6 writes both', () => {
    expect(instanceOfSegment('0:1/4', '0,1/4,1/2,3/4,1')).toBe(0);
    expect(instanceOfSegment('1/2:3/4', '0,1/4,1/2,3/4,1')).toBe(2);
    expect(instanceOfSegment('3/4:1', '0,1/4,1/2,3/4,1')).toBe(3);
    expect(instanceOfSegment(undefined, undefined)).toBe(0);
    expect(() => instanceOfSegment('1/3:2/3', '0,1/4,1/2,3/4,1')).toThrow(/1\/3:2\/3/);
  });

  it("tells each of the operator's runners apart inside k6", async () => {
    const dir = tmp();
    const script = join(dir, 'which.ts');
    writeFileSync(
      script,
      [
        `import exec from 'k6/execution';`,
        `import { instanceOfSegment } from '${resolve(import.meta.dirname, '../../core/token-turns.ts')}';`,
        `export const options = { vus: 4, iterations: 4 };`,
        `export default function () {`,
        `  const { executionSegment, executionSegmentSequence } = exec.test.options;`,
        `  console.log('instance=' + instanceOfSegment(executionSegment, executionSegmentSequence));`,
        `}`,
      ].join('\n'),
    );
    const seen = await Promise.all(
      JOBS.runners.map(async ({ command }) => {
        const segments = command.filter((arg) => arg.startsWith('--execution-segment'));
        const { stderr } = await promisify(execFile)(findK6(), ['run', '--quiet', ...segments, script], {
          env: { ...process.env, K6_NO_USAGE_REPORT: 'true', K6_AUTO_EXTENSION_RESOLUTION: 'false' },
        });
        return [...new Set(stderr.match(/instance=\d+/g))];
      }),
    );
    expect(seen).toEqual(JOBS.runners.map((_, i) => [`instance=${i}`]));
  });
});
