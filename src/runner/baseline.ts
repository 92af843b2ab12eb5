// --baseline: the results a target known to deviate is expected to give, by check ID. A run that differs in either
// direction fails, so a fixed deviation has to update the baseline instead of going unnoticed.
import { isKnownCheck } from '../compare/forgery.ts';
import { conformanceReportIn } from '../compare/run-docs.ts';
import { readBackJson, refusal } from '../read-back.ts';
import { GRADES, type Grade } from './grades.ts';
import type { RunReport } from './types.ts';

export type Baseline = ReadonlyMap<string, Grade>;

/**
 * Accepts an earlier conformance.json, held to what compare holds one to (schema, known unique check IDs, counts,
 * dates), or a plain `{ "CHECK-ID": "GRADE" }` object of checks harness has.
 */
export const loadBaseline = (path: string): Baseline => {
  const named = `--baseline ${path}`;
  const document = readBackJson(path, named);
  if (typeof document !== 'object' || document === null || Array.isArray(document)) {
    throw refusal(named, 'neither a conformance report nor an object of check IDs and their grades');
  }
  if ('checks' in document) {
    return new Map(conformanceReportIn(document, named).checks.map((c) => [c.id, c.grade]));
  }
  const entries = Object.entries(document);
  for (const [id, grade] of entries) {
    if (!isKnownCheck(id, true)) throw refusal(named, `${id}: no check harness has`);
    if (!GRADES.includes(grade as Grade)) {
      throw refusal(named, `${id}: '${String(grade)}' is not one of ${GRADES.join(', ')}`);
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
