// The action with command load, its run: steps run with bash against the embedded reference server: k6 from the
// action's checkout (tools/k6, what its install step builds), the phase table on the job summary, the run's folder
// as report-path. A k6 run of real-time windows: test:long.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hasTool, needing } from '../support/tools.ts';
import { runAction } from './steps.ts';

describe.skipIf(!hasTool('k6'))(needing('k6', 'the action running harness load'), () => {
  it('runs the transactions scenario and gives the exit code, summary line and folder of that run', {
    timeout: 240_000,
  }, () => {
    const run = runAction({ command: 'load', scenario: 'transactions' });
    expect(run.npmCalls.at(-1)).toMatch(/: npm run build:k6$/);
    const code = run.outputs['exit-code'];
    // On a busy runner k6 may fall short of a phase's rate: harness then says INCONCLUSIVE (exit 5), not PASS.
    expect(['0', '5'], run.steps.map((s) => s.stderr).join('\n')).toContain(code);
    expect(run.outputs.summary).toMatch(/^summary: 3 phases: /);
    expect(run.outputs.summary?.includes('INCONCLUSIVE')).toBe(code === '5');
    expect(existsSync(join(run.outputs['report-path']!, 'load-transactions.xml'))).toBe(true);
    expect(run.jobSummary).toMatch(/^## \S+ harness load: /m);
    expect(run.steps.at(-1)?.status).toBe(Number(code));
  });
});
