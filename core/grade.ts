// The grades every report states, of a conformance check and of a load phase alike. Pure TypeScript: k6's
// handleSummary grades with it as the Node CLI does.

export const GRADES = ['ERROR', 'FAIL', 'INCONCLUSIVE', 'WARN', 'SKIP', 'INFO', 'PASS'] as const;
/**
 * ERROR: harness itself went wrong (an exception, a bug), so the check says nothing about the server. FAIL: the
 * server breaks a rule SPEC.md states. WARN: SPEC.md is silent and convention (RFC 6749/6750/9110) says otherwise.
 * INCONCLUSIVE: the evidence cannot decide (outside traffic spoiled the measurement, the API served nothing, the
 * run's deadline cut the check short). SKIP: not run, with the reason. INFO: a recorded observation that is neither
 * right nor wrong. PASS: the rule holds.
 */
export type Grade = (typeof GRADES)[number];

/** Order of the report: what needs attention first. */
export const gradeRank = (grade: Grade): number => GRADES.indexOf(grade);
