// The reports of a load run, whichever command judged it (`harness load`, and `harness load merge` of instances run
// elsewhere): load-<label>.xml for CI, the merged summary's JSON and HTML (k6 writes only its runners'), and what the
// terminal shows of it is terminal/load-summary.ts's.
import { GRADES, type Grade } from '../../core/grade.ts';
import { byGrade, type JudgedSummary, reportJson } from '../../core/judged.ts';
import { phaseAnchor, summaryHtml } from '../../core/report-html.ts';
import { plural } from '../plural.ts';
import { specDigest } from '../spec/digest.ts';
import { harnessVersion } from '../version.ts';
import { type GradedPhase, type LoadJUnitOptions, phaseAsRun, toLoadJUnit } from './junit.ts';
import { attentionEntries, RUN_INDEX, runIndex } from './run-index.ts';
import { type Reporter, type Written, writeRun } from './write.ts';

export interface LoadReportRun extends LoadJUnitOptions {
  /** The scenarios run, joined by `+` (or `all`): every file is named after it. */
  readonly label: string;
  /** Every phase with its grade, failures first, as JUnit, the index and the terminal show it. */
  readonly phases: readonly GradedPhase[];
  /** The evidence and its verdicts, judged once; none when a signal came before any phase had a result. */
  readonly judged?: JudgedSummary;
}

/** A judged summary as the reports take it: `startedAt` is the instances' common start (epoch ms). */
export const judgedRun = (
  judged: JudgedSummary,
  startedAt: number,
  options: LoadJUnitOptions & { readonly label: string },
): LoadReportRun => ({
  ...options,
  judged,
  phases: byGrade(judged).map(({ result, verdict }) =>
    phaseAsRun(result.plan, verdict, startedAt, judged.summary.interrupted?.atMs),
  ),
});

export const summaryFile = (label: string, extension: 'json' | 'html') =>
  `load-${label}-summary.${extension}`;
export const junitFile = (label: string) => `load-${label}.xml`;

const junitReporter: Reporter<LoadReportRun> = {
  file: (run) => junitFile(run.label),
  render: (run) => toLoadJUnit(run.phases, run),
};

/** What `harness compare` checks before comparing two summaries: the same SPEC.md data, the same major version. */
const stamp = () => ({ harness: { name: 'harness', version: harnessVersion() }, specDigest: specDigest() });

const summaryReporters = (judged: JudgedSummary): Reporter<LoadReportRun>[] => [
  { file: (run) => summaryFile(run.label, 'json'), render: () => reportJson(judged, stamp()) },
  { file: (run) => summaryFile(run.label, 'html'), render: () => summaryHtml(judged) },
];

/** The worst phase grade, as load's exit code reads it: an INCONCLUSIVE phase leaves the run without a verdict. */
const loadVerdict = (phases: readonly GradedPhase[]): { verdict: string; grade: Grade } => {
  const grade = GRADES.find((g) => phases.some((p) => p.grade === g)) ?? 'PASS';
  return { verdict: grade === 'INCONCLUSIVE' ? 'NO VERDICT' : grade, grade };
};

/** index.html: the verdict and the phases that need attention, then the reports and `alongside` (k6's files). */
const indexReporter = (alongside: readonly string[]): Reporter<LoadReportRun> => ({
  file: () => RUN_INDEX,
  render: (run, names) =>
    runIndex({
      title: `harness load: ${run.label}`,
      ...loadVerdict(run.phases),
      counts: Object.fromEntries(
        GRADES.map((g) => [g, run.phases.filter((p) => p.grade === g).length]).filter(([, n]) => n !== 0),
      ),
      coverage: phaseCounts(run.phases).replace(/^summary: /, ''),
      entries: attentionEntries(run.phases, ({ name, grade, message }) => ({
        id: name,
        grade,
        title: message,
        href: `${summaryFile(run.label, 'html')}#${phaseAnchor(name)}`,
      })),
      files: [...names, ...alongside],
    }),
});

/**
 * Writes the run's reports into `dir` (the merged summary's JSON and HTML, JUnit, and an index.html linking them and
 * `alongside`, k6's own files there) and points `latest` at it.
 */
export const writeLoadReports = (
  dir: string,
  run: LoadReportRun,
  alongside: readonly string[] = [],
): Promise<Written> =>
  writeRun(dir, run, [
    ...(run.judged === undefined ? [] : summaryReporters(run.judged)),
    junitReporter,
    // A page to open first, where there is a verdict page to open.
    ...(run.judged === undefined ? [] : [indexReporter(alongside)]),
  ]);

export type Counted = readonly Pick<GradedPhase, 'name' | 'grade'>[];

/** Each grade given, with how many phases got it, worst first. */
export const tallies = (phases: Counted) =>
  GRADES.map((grade) => [grade, phases.filter((p) => p.grade === grade).length] as const).filter(
    ([, n]) => n > 0,
  );

export const failedNames = (phases: Counted): string => {
  const failed = phases.filter((p) => p.grade === 'FAIL').map((p) => p.name);
  return failed.length > 0 ? `; failed: ${failed.join(', ')}` : '';
};

/** `3 phases: 1 FAIL, 2 PASS; failed: over_transactions`: the terminal's last line, and the job summary's. */
export const phaseCounts = (phases: Counted): string =>
  `summary: ${plural(phases.length, 'phase')}: ${tallies(phases)
    .map(([grade, n]) => `${n} ${grade}`)
    .join(', ')}${failedNames(phases)}`;
