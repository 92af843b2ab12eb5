// Reports group checks by the SPEC.md section their clause cites ('§5 rule 3' belongs to §5), titled as SPEC.md
// titles them, so a reader can go from a report group straight to the spec.
import { type Grade, gradeRank } from '../runner/grades.ts';
import type { CheckResult } from '../runner/types.ts';
import { sectionOf } from '../spec/index.ts';

const TITLES: Readonly<Record<string, string>> = {
  '§1': 'What the service does',
  '§2': 'Resources and their fields',
  '§3': 'States and transitions',
  '§4': 'Endpoints',
  '§5': 'Authentication',
  '§6': 'Events',
  '§7': 'Errors',
  '§8': 'Limits',
  '§9': 'Versioning',
};

export interface SectionGroup {
  /** '§5' */
  readonly id: string;
  /** 'SPEC.md §5 Authentication' */
  readonly name: string;
  readonly checks: readonly CheckResult[];
  /** The most severe grade among its checks. */
  readonly worst: Grade;
}

const sectionNumber = (id: string): number => Number(id.slice(1)) || Number.POSITIVE_INFINITY;

export const sectionName = (id: string): string => {
  const title = TITLES[id];
  return title === undefined ? `SPEC.md ${id}` : `SPEC.md ${id} ${title}`;
};

/** Where a check's quote comes from: SPEC.md's clause, or the RFC a convention check follows. */
export const quoteSource = (check: CheckResult): string =>
  check.convention === undefined
    ? `SPEC.md ${check.clause}`
    : `${check.convention.rfc} ${check.convention.section}`;

const bySeverity = (a: CheckResult, b: CheckResult): number => gradeRank(a.grade) - gradeRank(b.grade);

/**
 * Groups in SPEC.md order with checks in run order, or (`severity`) the groups and the checks within them most
 * severe first, spec order breaking ties.
 */
export const groupBySection = (
  checks: readonly CheckResult[],
  order: 'spec' | 'severity',
): SectionGroup[] => {
  const buckets = new Map<string, CheckResult[]>();
  for (const check of checks) {
    const id = sectionOf(check.clause);
    const bucket = buckets.get(id) ?? [];
    bucket.push(check);
    buckets.set(id, bucket);
  }
  const groups = [...buckets].map(([id, members]): SectionGroup => {
    const sorted = order === 'severity' ? [...members].sort(bySeverity) : members;
    const worst = members.reduce(
      (w, c) => (gradeRank(c.grade) < gradeRank(w) ? c.grade : w),
      members[0]!.grade,
    );
    return { id, name: sectionName(id), checks: sorted, worst };
  });
  groups.sort((a, b) => sectionNumber(a.id) - sectionNumber(b.id));
  if (order === 'severity') groups.sort((a, b) => gradeRank(a.worst) - gradeRank(b.worst));
  return groups;
};
