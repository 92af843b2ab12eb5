// `harness load merge` on summaries no k6 wrote: forged, corrupt or huge. A runner summary is graded only when every
// field is there and every count is one k6 could have recorded; anything else is exit 2, one line naming the file
// and the field, never a verdict and never a stack trace; a summary of no phase is no verdict (exit 5). Apart from
// merge.test.ts, whose k6 runners every test there waits for: these need none.
import { readdirSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { LoadSummary } from '../../core/evidence.ts';
import { runLoadMergeCommand } from '../../src/cli/load-merge.ts';
import { InputError } from '../../src/errors.ts';
import { MAX_SLOT_GRID } from '../../src/k6-driver/summary-schema.ts';
import { MAX_READ_BACK_BYTES } from '../../src/read-back.ts';
import { harness, tmp } from '../cli/run.ts';
import { NETWORKS, SIMULATED_RUNNER as RUNNER, simulate } from './simulate.ts';

/** One runner's summary of a faithful server, as a runner alone writes it: its counts PASS every phase. */
const faithful = (): LoadSummary & Record<string, unknown> => ({
  ...simulate({ kind: 'aligned', network: NETWORKS.lan }, { scenarios: ['transactions'] }),
  runner: RUNNER,
});

const dir = tmp();
let written = 0;
const write = (summary: unknown, name = `runner-${++written}.json`) => {
  writeFileSync(join(dir, name), JSON.stringify(summary, null, 2));
  return join(dir, name);
};

const merge = (...files: string[]) => runLoadMergeCommand(files, { reportDir: tmp() });

/** The one line a summary is refused with: thrown as bad input (exit 2), never graded. */
const refusal = async (...files: string[]): Promise<string> => {
  const error = await merge(...files).catch((e: Error) => e);
  expect(error).toBeInstanceOf(InputError);
  return (error as Error).message;
};

/** The faithful summary with phase `i` changed. */
const withPhase = (i: number, change: (phase: Record<string, unknown>) => void) => {
  const summary = JSON.parse(JSON.stringify(faithful()));
  change(summary.phases[i]);
  return write(summary);
};

describe('harness load merge, on forged or corrupt summaries', () => {
  it('grades the faithful summary they are forged from: every phase PASSes', async () => {
    const merged = await merge(write(faithful()));
    expect(merged.exitCode).toBe(0);
    const report = JSON.parse(readFileSync(join(merged.dir, 'load-merged-summary.json'), 'utf8'));
    expect(report.grades.map((g: { grade: string }) => g.grade)).toEqual(['PASS', 'PASS', 'PASS']);
  });

  it('refuses more admitted than offered, naming the file and the count', async () => {
    const file = withPhase(0, (p) => {
      p.admitted = (p.offered as number) * 10;
    });
    expect(await refusal(file)).toMatch(
      /^\S+runner-\d+\.json: \/phases\/0\/admitted: \d+, more than the \d+ requests offered$/,
    );
  });

  it('refuses null, negative and non-numeric counts', async () => {
    for (const [value, why] of [
      [null, 'must be integer'],
      [-5, 'must be >= 0'],
      ['5', 'must be integer'],
      [2.5, 'must be integer'],
    ] as const) {
      const file = withPhase(1, (p) => {
        p.limited = value;
      });
      expect(await refusal(file)).toBe(`${file}: /phases/1/limited: ${why}`);
    }
  });

  it('refuses a summary missing its plan or its slots, or with slots counting more than the phase', async () => {
    const noPlan = withPhase(2, (p) => delete p.plan);
    expect(await refusal(noPlan)).toBe(`${noPlan}: /phases/2/plan: missing`);
    const noSlots = withPhase(0, (p) => delete p.slots);
    expect(await refusal(noSlots)).toBe(`${noSlots}: /phases/0/slots: missing`);
    const moreInSlots = withPhase(1, (p) => {
      (p.slots as { limited: number[] }).limited[3]! += (p.limited as number) + 1;
    });
    expect(await refusal(moreInSlots)).toMatch(
      /: \/phases\/1\/slots\/limited: \d+ in all, more than the phase's \d+ limited$/,
    );
    const ragged = withPhase(1, (p) => (p.slots as { admittedMaxRttMs: number[] }).admittedMaxRttMs.pop());
    expect(await refusal(ragged)).toMatch(/: \/phases\/1\/slots: its four lists differ in length/);
  });

  it('refuses grades that are not what harness writes, though the merge makes its own: grades: [null], a grade of markup', async () => {
    const nullGrade = write({ ...faithful(), grades: [null] });
    expect(await refusal(nullGrade)).toBe(`${nullGrade}: /grades/0: must be object`);
    const markup = { phase: 'over_transactions', grade: '<script>', message: '', notes: [] };
    const markupGrade = write({ ...faithful(), grades: [markup] });
    expect(await refusal(markupGrade)).toBe(
      `${markupGrade}: /grades/0/grade: must be equal to one of the allowed values`,
    );
  });

  it('refuses a phase that starts further into the plan than any plan harness makes', async () => {
    // 10^12 ms at 20 ms a slot: the verdicts would lay out 5 × 10^10 slots (RangeError: Invalid array length).
    const late = withPhase(0, (p) => {
      (p.plan as { startMs: number }).startMs = 1e12;
    });
    expect(await refusal(late)).toBe(
      `${late}: /phases/0/plan/startMs: 1000000000000 ms into the plan at 20 ms a slot, the phases span over ${MAX_SLOT_GRID} slots, far more than any plan harness makes`,
    );
  });

  it('exits 2 through the CLI with one line, no stack trace and no report', async () => {
    const reportDir = tmp();
    const missing = withPhase(0, (p) => delete p.plan);
    const refused = await harness(['load', 'merge', '--report-dir', reportDir, missing]);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toBe(`harness: ${missing}: /phases/0/plan: missing\n`);
    expect(refused.stdout).toBe('');
    expect(readdirSync(reportDir)).toEqual([]);
  });

  it("prints a phase name's control codes escaped: a forged summary's \\u009b (CSI) never reaches the terminal", async () => {
    const forged = withPhase(0, (p) => {
      (p.plan as { name: string }).name = 'over\u009b2J_transactions';
    });
    const run = await harness(['load', 'merge', '--report-dir', tmp(), forged]);
    expect(run.stdout).toMatch(/^\S+\s+over\\u009b2J_transactions /m);
    expect(run.stdout + run.stderr).not.toContain('\u009b');
  });

  it('refuses a runner whose phases are not the plan its run id and plan digest say the others ran', async () => {
    const halves = ['0:1/2', '1/2:1'].map((segment) => ({ ...faithful(), runner: { ...RUNNER, segment } }));
    // Each half holds the whole run's counts, so the two are graded (as too many admitted): merged, not refused.
    await expect(merge(write(halves[0]), write(halves[1]))).resolves.toMatchObject({ exitCode: 1 });
    const fewer = write({ ...halves[1], phases: halves[1]!.phases.slice(1) });
    expect(await refusal(write(halves[0]), fewer)).toMatch(
      new RegExp(
        `^${fewer}: /phases: 2 phases, not the 3 of \\S+, which has the same run id and plan sha256$`,
      ),
    );
    const [first, ...rest] = halves[1]!.phases;
    const longer = { ...first!, plan: { ...first!.plan, durationMs: first!.plan.durationMs * 2 } };
    const other = write({ ...halves[1], phases: [longer, ...rest] });
    expect(await refusal(write(halves[0]), other)).toMatch(/^\S+: \/phases\/0\/plan: not the plan of \S+/);
  });

  it('escapes the control characters of a field name it names', async () => {
    const file = write({ ...faithful(), '\u001b[2J\u202egnp.txt': 1 });
    expect(await refusal(file)).toBe(`${file}: /\\u001b[2J\\u202egnp.txt: not a field of a load summary`);
  });

  it(`reads no file over ${MAX_READ_BACK_BYTES} bytes, and takes its size before reading it`, async () => {
    // Sparse: as large as a forged gigabyte to stat, and nothing to read.
    const huge = join(dir, 'huge.json');
    writeFileSync(huge, '');
    truncateSync(huge, 1024 ** 3);
    const started = performance.now();
    expect(await refusal(huge)).toBe(
      `${huge}: ${1024 ** 3} bytes, more than the ${MAX_READ_BACK_BYTES} any file harness reads back may hold`,
    );
    expect(performance.now() - started).toBeLessThan(1000);
    await expect(runLoadMergeCommand([huge], { reportDir: tmp(), fromLogs: true })).rejects.toThrow(
      /huge\.json: 1073741824 bytes, more than/,
    );
  });

  it('is no verdict (exit 5) on summaries of no phase, saying so: nothing was judged', async () => {
    const empty = write({ ...faithful(), phases: [] });
    expect((await merge(empty)).exitCode).toBe(5);
    const run = await harness(['load', 'merge', '--report-dir', tmp(), empty]);
    expect(run.status).toBe(5);
    expect(run.stderr).toMatch(/^harness: no verdict \(exit 5\): not one phase to judge: nothing failed/m);
  });
});
