// A load summary judged once. Whoever judges (k6's handleSummary for a runner alone, the CLI once it has merged the
// runners) calls judge(); every renderer (the HTML page, the JSON and JUnit reports, the terminal's lines) takes what
// it returns and shows those verdicts, so no two outputs of one run can grade a phase differently, and none judges
// the evidence again. Pure TypeScript, shared by k6 and the harness CLI.
import type { LoadSummary, PhaseResult } from './evidence.ts';
import { gradeRank } from './grade.ts';
import { judgeAll, type LoadGrade, type PhaseVerdict } from './verdict.ts';

export interface JudgedPhase {
  readonly result: PhaseResult;
  readonly verdict: PhaseVerdict;
}

export interface JudgedSummary {
  readonly summary: LoadSummary;
  /** Every phase with its verdict, in the summary's order. */
  readonly phases: readonly JudgedPhase[];
}

export const judge = (summary: LoadSummary): JudgedSummary => {
  const verdicts = judgeAll(summary);
  return { summary, phases: summary.phases.map((result, i) => ({ result, verdict: verdicts[i]! })) };
};

/** The judged phases, failures first, then the rest in grade order, stable within a grade. */
export const byGrade = ({ phases }: JudgedSummary): JudgedPhase[] =>
  [...phases].sort((a, b) => gradeRank(a.verdict.grade) - gradeRank(b.verdict.grade));

/** A phase's verdict as one terminal line, the same from k6 and from the CLI: `PASS         over_x   reads ...`. */
export const phaseLine = (grade: LoadGrade, phase: string, message: string): string =>
  `${grade.padEnd(12)} ${phase.padEnd(34)} ${message}`;

/**
 * The summary as harness writes it: the evidence, then every phase's grade, failures first. `stamp`: who wrote the
 * report and against which SPEC.md data (the CLI's; k6's runner summaries carry none).
 */
export const reportJson = (judged: JudgedSummary, stamp: Readonly<Record<string, unknown>> = {}): string => {
  const grades = byGrade(judged).map(({ result, verdict }) => ({ phase: result.plan.name, ...verdict }));
  return `${JSON.stringify({ ...stamp, ...judged.summary, grades }, null, 2)}\n`;
};
