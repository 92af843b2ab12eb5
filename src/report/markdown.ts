// Markdown for a CI job page (GitHub's job summary, a GitLab merge request note): what needs attention first, one
// table row per check that did not pass, then the summary last, where a reader scrolling to the end looks for it.
import { plural } from '../plural.ts';
import { GRADES, type Grade, gradeRank } from '../runner/grades.ts';
import type { CheckResult, RunReport } from '../runner/types.ts';
import { coverageSentence } from './coverage.ts';
import { stripIllegal } from './escape.ts';
import { formatDuration } from './html.ts';
import { mdText } from './markdown-text.ts';
import { runVerdict, verdictHeadline } from './outcome.ts';
import { quoteSource } from './sections.ts';

/** A fence longer than any run of backticks inside, so reproduction commands cannot close it early. */
const fenced = (lines: readonly string[]): string => {
  const body = stripIllegal(lines.join('\n\n'));
  const longest = Math.max(2, ...(body.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}sh\n${body}\n${fence}`;
};

const row = (check: CheckResult): string =>
  `| ${check.grade} | \`${check.id}\` ${mdText(check.title)} | ${mdText(quoteSource(check))} | ${mdText(check.message)} |`;

/** FAIL checks with a way to reproduce them, one collapsed block each. */
const reproductions = (checks: readonly CheckResult[]): string[] =>
  checks
    .filter((c) => c.grade === 'FAIL' && c.repro.length > 0)
    .map((c) =>
      [`<details><summary>Reproduce ${c.id}</summary>`, '', fenced(c.repro), '', '</details>', ''].join('\n'),
    );

export const toMarkdown = (report: RunReport, reportFiles: readonly string[] = []): string => {
  const attention = report.checks
    .filter((c) => c.grade !== 'PASS')
    .sort((a, b) => gradeRank(a.grade) - gradeRank(b.grade));
  const passed = report.checks.filter((c) => c.grade === 'PASS');
  const counts = GRADES.filter((g: Grade) => report.counts[g] > 0)
    .map((g) => `${report.counts[g]} ${g}`)
    .join(', ');
  const certifiable = report.certifiable
    ? 'yes'
    : `no\n${report.notCertifiable.map((reason) => `  - ${mdText(reason, 'prose')}`).join('\n')}`;
  const lines = [
    `## harness conformance: ${verdictHeadline(runVerdict(report))}`,
    '',
    `**Coverage:** ${mdText(coverageSentence(report), 'prose')}`,
    '',
  ];
  if (attention.length > 0) {
    lines.push('| grade | check | rule | why |', '|---|---|---|---|', ...attention.map(row), '');
    lines.push(...reproductions(attention));
  }
  if (passed.length > 0) {
    lines.push(
      `<details><summary>${plural(passed.length, 'check')} passed</summary>`,
      '',
      ...passed.map((c) => `- \`${c.id}\` ${mdText(c.title, 'prose')} (${mdText(c.clause, 'prose')})`),
      '',
      '</details>',
      '',
    );
  }
  lines.push(
    '### Summary',
    '',
    `- **Target:** ${mdText(report.target.base_url, 'prose')} (tenant ${mdText(report.target.tenant, 'prose')})`,
    `- **Checks:** ${report.checks.length} in ${formatDuration(report.durationMs)}: ${counts}`,
    `- **Certifiable:** ${certifiable}`,
    `- **harness:** ${mdText(report.harness.version, 'prose')}, started ${report.startedAt}`,
  );
  if (reportFiles.length > 0) lines.push(`- **Reports:** ${reportFiles.map((f) => `\`${f}\``).join(', ')}`);
  return `${lines.join('\n')}\n`;
};
