// What `harness load` and `harness load merge` write and print once a run's summary is merged: the summary JSON and
// HTML, the JUnit report, a grade line per phase, and the exit code. Written once, so both grade alike.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LoadSummary } from '../../load/lib/evidence.ts';
import { summaryHtml } from '../../load/lib/report-html.ts';
import { byGrade, GRADE_ORDER, reportJson } from '../../load/lib/verdict.ts';
import { type LoadJUnitOptions, phaseAsRun, toLoadJUnit } from '../report/load-junit.ts';
import { pointLatest } from '../report/write.ts';
import { exitCodeOf, FAILED, HARNESS_ERROR, NO_VERDICT, noVerdictLine, PASSED } from './exit-codes.ts';
import { inconclusiveAdvice } from './load-advice.ts';

/**
 * A k6 error makes every count doubtful, so it outranks a failed phase. An INCONCLUSIVE phase (dropped iterations, a
 * starved k6, a reading the evidence cannot prove, a runner missing from the merge) decided nothing: no verdict,
 * never a pass. WARN is no failure of the server; --strict makes it one.
 */
export const loadExitCode = (
  graded: readonly { verdict: { grade: string } }[],
  k6Failed: boolean,
  strict: boolean,
): number => {
  const has = (grade: string) => graded.some((g) => g.verdict.grade === grade);
  return exitCodeOf([
    k6Failed ? HARNESS_ERROR : PASSED,
    has('FAIL') || (strict && has('WARN')) ? FAILED : PASSED,
    has('INCONCLUSIVE') ? NO_VERDICT : PASSED,
  ]);
};

export interface LoadReportRun {
  readonly dir: string;
  /** Files are named after it: `load-<label>-summary.json`, `load-<label>.xml`. */
  readonly label: string;
  readonly summary: LoadSummary;
  /** The common start (epoch ms) the phases' times count from. */
  readonly startedAt: number;
  readonly junit: LoadJUnitOptions;
  /** k6's exit codes per runner, when harness ran k6 (a merge of summaries has none). */
  readonly exitCodes?: readonly number[];
  /** Files already written for the run (dashboards, runner summaries), listed before the reports. */
  readonly files?: readonly string[];
  /** Where lines that may carry the target's name go (redacted by the caller). */
  readonly say: (line: string) => void;
}

/** Writes the reports, prints every phase's grade and the summary line, and returns the exit code and the files. */
export const writeLoadReports = async (
  run: LoadReportRun,
): Promise<{ exitCode: number; files: string[] }> => {
  const { dir, label, summary, say } = run;
  const files = [...(run.files ?? [])];
  const merged = join(dir, `load-${label}-summary`);
  writeFileSync(`${merged}.json`, reportJson(summary));
  writeFileSync(`${merged}.html`, summaryHtml(summary));
  files.push(`${merged}.json`, `${merged}.html`);
  const graded = byGrade(summary);
  const junit = join(dir, `load-${label}.xml`);
  writeFileSync(
    junit,
    toLoadJUnit(
      graded.map(({ result, verdict }) =>
        phaseAsRun(result.plan, verdict, run.startedAt, summary.interrupted?.atMs),
      ),
      run.junit,
    ),
  );
  files.push(junit);
  const latestNotMoved = await pointLatest(dir);
  if (latestNotMoved) console.error(`harness: ${latestNotMoved}`);
  for (const { result, verdict } of graded) {
    console.log(`${verdict.grade.padEnd(12)} ${result.plan.name.padEnd(34)} ${verdict.message}`);
  }
  console.log(`reports: ${files.join(', ')}`);
  const counts = GRADE_ORDER.map((grade) => [grade, graded.filter((g) => g.verdict.grade === grade)] as const)
    .filter(([, list]) => list.length > 0)
    .map(([grade, list]) => `${list.length} ${grade}`);
  const failed = graded.filter((g) => g.verdict.grade === 'FAIL').map((g) => g.result.plan.name);
  console.log(
    `summary: ${graded.length} phases: ${counts.join(', ')}` +
      (failed.length > 0 ? `; failed: ${failed.join(', ')}` : ''),
  );
  // k6 stopped by a signal exits non-zero by design.
  const exitCodes = run.exitCodes ?? [];
  const k6Failed = !summary.interrupted && exitCodes.some((code) => code !== 0);
  if (k6Failed) console.log(`k6 exited with ${exitCodes.join(', ')}: see its output above`);
  const exitCode = loadExitCode(graded, k6Failed, run.junit.strict === true);
  if (exitCode === NO_VERDICT) {
    const undecided = graded.filter((g) => g.verdict.grade === 'INCONCLUSIVE');
    console.error(
      noVerdictLine(
        'phases',
        undecided.map((g) => g.result.plan.name),
      ),
    );
    for (const line of inconclusiveAdvice(undecided.map((g) => g.verdict.message))) say(line);
  }
  return { exitCode, files };
};
