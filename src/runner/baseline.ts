// --baseline: the results a target known to deviate is expected to give, by check ID. A run that differs in either
// direction fails, so a fixed deviation has to update the baseline instead of going unnoticed.
import { InputError } from '../errors.ts';
import { readBackJson } from '../read-back.ts';
import { GRADES, type Grade } from './grades.ts';
import type { RunReport } from './types.ts';

export type Baseline = ReadonlyMap<string, Grade>;

/** Accepts an earlier conformance.json, or a plain `{ "CHECK-ID": "GRADE" }` object. */
export const loadBaseline = (path: string): Baseline => {
  const document = readBackJson(path, `--baseline ${path}`);
  const entries: [string, unknown][] =
    typeof document === 'object' && document !== null && Array.isArray((document as RunReport).checks)
      ? (document as RunReport).checks.map((c) => [c.id, c.grade])
      : Object.entries(document ?? {});
  for (const [id, grade] of entries) {
    if (!GRADES.includes(grade as Grade)) {
      throw new InputError(
        `--baseline ${path}: ${id}: '${String(grade)}' is not one of ${GRADES.join(', ')}`,
      );
    }
  }
  return new Map(entries as [string, Grade][]);
};

export interface Difference {
  readonly id: string;
  readonly expected: Grade;
  readonly actual: Grade | 'absent';
}

/** Differences on the checks the baseline lists; checks it does not list are held to the usual exit rule. */
export const compareBaseline = (report: RunReport, baseline: Baseline): Difference[] => {
  const actual = new Map(report.checks.map((c) => [c.id, c.grade]));
  return [...baseline]
    .map(([id, expected]): Difference => ({ id, expected, actual: actual.get(id) ?? 'absent' }))
    .filter((d) => d.expected !== d.actual);
};
