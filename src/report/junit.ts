// JUnit XML, the format CI systems (Jenkins, GitLab, GitHub test reporters) read: one testsuite per SPEC.md section,
// one testcase per check. FAIL is a failure, ERROR (harness's own fault) and INCONCLUSIVE errors (the run, not the
// server, is in doubt), SKIP is skipped; WARN and INFO pass but say so in system-out, since JUnit has no grade between pass and fail.
import type { CheckResult, RunReport } from '../runner/types.ts';
import { escapeAttr, escapeText } from './escape.ts';
import { groupBySection, quoteSource } from './sections.ts';

const seconds = (ms: number): string => (ms / 1000).toFixed(3);

const attrs = (values: Record<string, string | number>): string =>
  Object.entries(values)
    .map(([name, value]) => ` ${name}="${escapeAttr(String(value))}"`)
    .join('');

/** What a reader of a CI failure needs without opening the HTML report: why, which rule, how to reproduce. */
const details = (check: CheckResult): string => {
  const lines = [check.message, '', `${quoteSource(check)}: ${check.quote}`];
  if (check.repro.length > 0) lines.push('', 'Reproduce:', ...check.repro);
  return lines.join('\n');
};

const testcase = (check: CheckResult, classname: string): string => {
  const open = `    <testcase${attrs({ classname, name: `${check.id}: ${check.title}`, time: seconds(check.durationMs) })}`;
  const body: string[] = [];
  switch (check.grade) {
    case 'FAIL':
      body.push(
        `<failure${attrs({ message: check.message, type: 'FAIL' })}>${escapeText(details(check))}</failure>`,
      );
      break;
    case 'ERROR':
    case 'INCONCLUSIVE':
      body.push(
        `<error${attrs({ message: check.message, type: check.grade })}>${escapeText(details(check))}</error>`,
      );
      break;
    case 'SKIP':
      body.push(`<skipped${attrs({ message: check.message })}/>`);
      break;
    case 'WARN':
      body.push(`<properties><property${attrs({ name: 'grade', value: 'WARN' })}/></properties>`);
      body.push(`<system-out>${escapeText(`WARN: ${details(check)}`)}</system-out>`);
      break;
    case 'INFO':
      body.push(`<system-out>${escapeText(`INFO: ${check.message}`)}</system-out>`);
      break;
    case 'PASS':
      break;
  }
  if (body.length === 0) return `${open}/>`;
  return [`${open}>`, ...body.map((line) => `      ${line}`), '    </testcase>'].join('\n');
};

const tally = (checks: readonly CheckResult[]) => ({
  tests: checks.length,
  failures: checks.filter((c) => c.grade === 'FAIL').length,
  errors: checks.filter((c) => c.grade === 'ERROR' || c.grade === 'INCONCLUSIVE').length,
  skipped: checks.filter((c) => c.grade === 'SKIP').length,
  time: seconds(checks.reduce((sum, c) => sum + c.durationMs, 0)),
});

export const toJUnit = (report: RunReport): string => {
  const suites = groupBySection(report.checks, 'spec').map((group) =>
    [
      `  <testsuite${attrs({ name: group.name, ...tally(group.checks) })}>`,
      ...group.checks.map((check) => testcase(check, group.id)),
      '  </testsuite>',
    ].join('\n'),
  );
  // The run's wall-clock time, not the sum of checks: checks in different lanes overlap.
  const totals = { ...tally(report.checks), time: seconds(report.durationMs) };
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites${attrs({ name: 'harness conformance', ...totals })}>`,
    ...suites,
    '</testsuites>',
    '',
  ].join('\n');
};
