// conformance.xml, the JUnit XML CI systems (Jenkins, GitLab, GitHub test reporters) read: one testsuite per SPEC.md
// section, one testcase per check, each grade shown as junitOutcome decides.
import type { CheckResult, RunReport } from '../runner/types.ts';
import { type JUnitCase, junitXml } from './junit-xml.ts';
import { groupBySection, quoteSource } from './sections.ts';

/** What a reader of a CI failure needs without opening the HTML report: why, which rule, how to reproduce. */
const details = (check: CheckResult): string => {
  const lines = [check.message, '', `${quoteSource(check)}: ${check.quote}`];
  if (check.repro.length > 0) lines.push('', 'Reproduce:', ...check.repro);
  return lines.join('\n');
};

export const toJUnit = (report: RunReport, options: { strict?: boolean; hostname?: string } = {}): string => {
  // The report lists every check that left its rule unverified; any other SKIP was the user's choice.
  const unverified = new Set(report.unverified);
  const testcase = (check: CheckResult, classname: string): JUnitCase => ({
    classname,
    name: `${check.id}: ${check.title}`,
    grade: check.grade,
    message: check.message,
    details: details(check),
    skipByChoice: !unverified.has(check.id),
    startedAt: Date.parse(check.startedAt),
    durationMs: check.durationMs,
  });
  return junitXml({
    name: 'harness conformance',
    suites: groupBySection(report.checks, 'spec').map((group) => ({
      name: group.name,
      cases: group.checks.map((check) => testcase(check, group.id)),
    })),
    durationMs: report.durationMs,
    properties: {
      'harness.version': report.harness.version,
      'target.base_url': report.target.base_url,
      'target.tenant': report.target.tenant,
      certifiable: String(report.certifiable),
    },
    strict: options.strict === true,
    ...(options.hostname === undefined ? {} : { hostname: options.hostname }),
  });
};
