// What a schema cannot say about a report read back, checked before compare or trend grades anything from it: a
// forged or corrupted report is refused (exit 2, naming the file and what is wrong), never graded. Each check is one
// a genuine report passes by construction: harness writes each check once, only checks it has, counts it made from
// those checks, dates from its own clock, and one SPEC.md digest per run.
import { allChecks } from '../../conformance/index.ts';
import { gridTooLarge, impossibleCount } from '../k6-driver/summary-schema.ts';
import { SPEC_TARGET } from '../profile/spec-target.ts';
import { GRADES } from '../runner/grades.ts';
import type { RunReport } from '../runner/types.ts';
import type { LoadReport } from './run-types.ts';

/** No report is older: harness wrote its first in November 2026. */
const EARLIEST = Date.parse('2026-11-01T00:00:00Z');
/** A report from a machine whose clock runs ahead (a CI runner's artifact) is still genuine within this. */
const CLOCK_SKEW_MS = 10 * 60_000;

let known: ReadonlySet<string> | undefined;
/**
 * Whether harness has a check of this ID: one of its registry, or (where `observability` allows it: a result tagged
 * so, or a bare ID) an endpoint check of an Observability endpoint the profile named (`observability:` in a profile
 * adds `ENDPOINT-<METHOD>-<PATH>` checks of its own).
 */
export const isKnownCheck = (id: string, observability: boolean): boolean => {
  known ??= new Set(allChecks(SPEC_TARGET).map((check) => check.id));
  return known.has(id) || (observability && /^ENDPOINT-(GET|POST)(-[A-Z0-9]+)*$/.test(id));
};

/** Why `value` (at JSON pointer `at`) is no date a genuine report carries, or undefined. */
const implausibleDate = (value: string, at: string, now: number): string | undefined => {
  const time = Date.parse(value);
  if (Number.isNaN(time)) return `${at}: ${value} is no date`;
  if (time > now + CLOCK_SKEW_MS) return `${at}: ${value} is in the future`;
  if (time < EARLIEST) return `${at}: ${value} is before harness wrote any report`;
  return undefined;
};

/** Why this conformance report cannot be one harness wrote, or undefined. */
export const conformanceForgery = (report: RunReport, now = Date.now()): string | undefined => {
  if (report.checks.length === 0) return '/checks: no check at all (a run of no check writes no report)';
  const seen = new Set<string>();
  for (const [i, { id, tags }] of report.checks.entries()) {
    if (seen.has(id)) return `/checks/${i}/id: ${id} a second time (a run grades each check once)`;
    seen.add(id);
    if (!isKnownCheck(id, tags.includes('observability')))
      return `/checks/${i}/id: ${id} is no check harness has`;
  }
  for (const grade of GRADES) {
    const graded = report.checks.filter((check) => check.grade === grade).length;
    if (report.counts[grade] !== graded) {
      return `/counts/${grade}: ${report.counts[grade]}, but ${graded} of its checks are graded ${grade}`;
    }
  }
  const dated =
    implausibleDate(report.startedAt, '/startedAt', now) ??
    implausibleDate(report.finishedAt, '/finishedAt', now);
  if (dated !== undefined) return dated;
  if (Date.parse(report.finishedAt) < Date.parse(report.startedAt)) {
    return `/finishedAt: ${report.finishedAt}, before the run started (${report.startedAt})`;
  }
  return undefined;
};

/** Why this load summary cannot be one harness wrote, or undefined. Linear: a forged summary may hold many phases. */
export const loadForgery = (report: LoadReport, now = Date.now()): string | undefined => {
  const names = new Set<string>();
  for (const [i, phase] of report.phases.entries()) {
    if (names.has(phase.plan.name)) return `/phases/${i}/plan/name: ${phase.plan.name} a second time`;
    names.add(phase.plan.name);
    const impossible = impossibleCount(phase, `/phases/${i}`);
    if (impossible !== undefined) return impossible;
  }
  const tooLarge = gridTooLarge(report.phases);
  if (tooLarge !== undefined) return tooLarge;
  if (report.grades !== undefined) {
    const graded = new Set<string>();
    for (const [i, { phase }] of report.grades.entries()) {
      if (!names.has(phase)) return `/grades/${i}/phase: ${phase} is no phase of this summary`;
      if (graded.has(phase)) return `/grades/${i}/phase: ${phase} graded a second time`;
      graded.add(phase);
    }
    const ungraded = [...names].find((name) => !graded.has(name));
    if (ungraded !== undefined) return `/grades: no grade for the phase ${ungraded}`;
  }
  return implausibleDate(report.generatedAt, '/generatedAt', now);
};
