// Markdown for a CI job page (GitHub's job summary, a GitLab merge request note): the verdict with its status mark and
// the coverage first, then what needs attention (a row per FAIL, ERROR, INCONCLUSIVE and WARN, each FAIL's
// reproduction open), the rest folded, and the summary last, where a reader scrolling to the end looks for it.
import { plural } from '../plural.ts';
import { GRADES, type Grade, gradeRank } from '../runner/grades.ts';
import type { CheckResult, RunReport } from '../runner/types.ts';
import { coverageSentence } from './coverage.ts';
import { stripIllegal } from './escape.ts';
import { formatDuration } from './html.ts';
import { mdText } from './markdown-text.ts';
import { runVerdict, verdictHeadline } from './run-verdict.ts';
import { quoteSource } from './sections.ts';
import { artifactsLine, marked } from './step-summary.ts';

/** A fence longer than any run of backticks inside, so reproduction commands cannot close it early. */
const fenced = (lines: readonly string[]): string => {
  const body = stripIllegal(lines.join('\n\n'));
  const longest = Math.max(2, ...(body.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}sh\n${body}\n${fence}`;
};

const row = (check: CheckResult): string =>
  `| ${marked(check.grade)} | \`${check.id}\` ${mdText(check.title)} | ${mdText(quoteSource(check))} | ${mdText(check.message)} |`;

const table = (checks: readonly CheckResult[]): string[] =>
  checks.length === 0 ? [] : ['| grade | check | rule | why |', '|---|---|---|---|', ...checks.map(row), ''];

/** Checks folded under a line that says what they are: on a green run, a page of them would bury the verdict. */
const folded = (summary: string, lines: readonly string[]): string[] =>
  lines.length === 0 ? [] : [`<details><summary>${summary}</summary>`, '', ...lines, '</details>', ''];

/** What needs attention: the grades that fail a run, or leave it without a verdict, or warn. */
const ATTENTION: ReadonlySet<Grade> = new Set(['ERROR', 'FAIL', 'INCONCLUSIVE', 'WARN']);

/** Each FAIL's reproduction, open: it is what a reader of a red job page copies first. */
const reproductions = (checks: readonly CheckResult[]): string[] =>
  checks
    .filter((c) => c.grade === 'FAIL' && c.repro.length > 0)
    .flatMap((c) => [`**Reproduce \`${c.id}\`:**`, '', fenced(c.repro), '']);

export interface MarkdownOptions {
  /** The report files beside it, listed in the summary. */
  readonly reportFiles?: readonly string[];
  /** The job's artifacts page (step-summary.ts's artifactsUrl), linked under the verdict. */
  readonly artifacts?: string;
}

export const toMarkdown = (
  report: RunReport,
  { reportFiles = [], artifacts }: MarkdownOptions = {},
): string => {
  const byRank = [...report.checks].sort((a, b) => gradeRank(a.grade) - gradeRank(b.grade));
  const attention = byRank.filter((c) => ATTENTION.has(c.grade));
  const withGrade = (grade: Grade) => report.checks.filter((c) => c.grade === grade);
  const passed = withGrade('PASS');
  const counts = GRADES.filter((g: Grade) => report.counts[g] > 0)
    .map((g) => `${report.counts[g]} ${g}`)
    .join(', ');
  const certifiable = report.certifiable
    ? 'yes'
    : `no\n${report.notCertifiable.map((reason) => `  - ${mdText(reason, 'prose')}`).join('\n')}`;
  const verdict = runVerdict(report);
  const lines = [
    `## ${marked(verdict.grade, `harness conformance: ${verdictHeadline(verdict)}`)}`,
    '',
    `**Coverage:** ${mdText(coverageSentence(report), 'prose')}`,
    '',
    ...artifactsLine(artifacts),
    ...table(attention),
    ...reproductions(attention),
    ...folded(`${plural(withGrade('SKIP').length, 'check')} skipped`, table(withGrade('SKIP'))),
    ...folded(
      `${plural(withGrade('INFO').length, 'observation')} (INFO, not graded)`,
      table(withGrade('INFO')),
    ),
    ...folded(
      `${plural(passed.length, 'check')} passed`,
      passed.length === 0
        ? []
        : [
            ...passed.map((c) => `- \`${c.id}\` ${mdText(c.title, 'prose')} (${mdText(c.clause, 'prose')})`),
            '',
          ],
    ),
    '### Summary',
    '',
    `- **Target:** ${mdText(report.target.base_url, 'prose')} (tenant ${mdText(report.target.tenant, 'prose')})`,
    `- **Checks:** ${report.checks.length} in ${formatDuration(report.durationMs)}: ${counts}`,
    `- **Certifiable:** ${certifiable}`,
    `- **harness:** ${mdText(report.harness.version, 'prose')}, started ${report.startedAt}`,
  ];
  if (reportFiles.length > 0) lines.push(`- **Reports:** ${reportFiles.map((f) => `\`${f}\``).join(', ')}`);
  return `${lines.join('\n')}\n`;
};
