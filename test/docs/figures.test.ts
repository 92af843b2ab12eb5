// The figures README.md and docs/load.md state that the code decides (how many checks run, how long a load plan is),
// read from the code here, so that a change to either shows up as a failing test instead of a stale page. Measured
// figures (a run's wall time) are given with the date and machine they were measured on.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { allChecks } from '../../conformance/index.ts';
import { planProbes } from '../../src/k6-driver/plan.ts';
import { SPEC_TARGET } from '../../src/profile/spec-target.ts';
import { resolveTarget } from '../../src/profile/target.ts';
import { PLAN_ONLY_TARGET } from '../load/target.ts';

const page = (path: string) =>
  readFileSync(join(import.meta.dirname, '../..', path), 'utf8').replace(/\s+/g, ' ');
const README = page('README.md');
const LOAD_GUIDE = page('docs/load.md');
const realTimings = resolveTarget(PLAN_ONLY_TARGET);
const plannedSeconds = (scenario: string, target = realTimings) =>
  planProbes(target, { scenarios: [scenario] }).totalMs / 1000;
const stated = (pattern: RegExp, text = README, name = 'README.md'): string[] => {
  const found = pattern.exec(text);
  expect(found, `${name} states ${pattern}`).not.toBeNull();
  return found!.slice(1);
};

describe('README and docs/load.md figures', () => {
  it('says how many checks a run of the embedded server has', () => {
    const [count] = stated(/runs all (\d+) checks against it/);
    expect(Number(count)).toBe(allChecks(SPEC_TARGET).length);
  });

  it("gives `--scenario all`'s and `--scenario transactions`'s planned length at real timings", () => {
    const [all, minutes, seconds] = stated(
      /`--scenario all` is planned at (\d+) s \((\d+) min (\d+) s/,
      LOAD_GUIDE,
      'docs/load.md',
    );
    expect(Number(all)).toBe(Math.round(plannedSeconds('all')));
    expect(Number(minutes) * 60 + Number(seconds)).toBe(Math.round(plannedSeconds('all')));
    const [transactions] = stated(
      /`--scenario transactions` is planned at (\d+) s/,
      LOAD_GUIDE,
      'docs/load.md',
    );
    expect(Number(transactions)).toBe(Math.round(plannedSeconds('transactions')));
    const [embedded] = stated(
      /against the embedded server \(2 s minutes\) `all` is planned at (\d+) s/,
      LOAD_GUIDE,
      'docs/load.md',
    );
    const twoSecondMinutes = resolveTarget({ ...PLAN_ONLY_TARGET, minute_ms: 2000 });
    expect(Number(embedded)).toBe(Math.round(plannedSeconds('all', twoSecondMinutes)));
  });
});
