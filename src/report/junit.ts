// The JUnit XML CI systems (Jenkins, GitLab, GitHub test reporters) read, of both commands, written by junitXml, each
// grade shown as gradeCount decides. conformance.xml: one testsuite per SPEC.md section, one testcase per check.
// load-<scenario>.xml: one testsuite per probe, one testcase per phase (an INCONCLUSIVE phase is an error, as it is
// exit 5, never a pass).
import type { PhasePlan } from '../../core/plan.ts';
import type { LoadGrade } from '../../core/verdict.ts';
import type { CheckResult, RunReport } from '../runner/types.ts';
import { type JUnitCase, junitXml } from './junit-xml.ts';
import { judgeRun } from './run-verdict.ts';
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
  const { accepted, differences } = judgeRun(report);
  const expected = new Map(differences.map((d) => [d.id, d.expected]));
  const testcase = (check: CheckResult, classname: string): JUnitCase => ({
    classname,
    name: `${check.id}: ${check.title}`,
    grade: check.grade,
    message: check.message,
    details: details(check),
    skipByChoice: !unverified.has(check.id),
    ...(accepted.has(check.id) ? { accepted: true } : {}),
    ...(expected.has(check.id) ? { baselineExpects: expected.get(check.id)! } : {}),
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

export interface GradedPhase {
  /** The k6 scenario, e.g. `over_transactions`. */
  readonly name: string;
  /** The probe it belongs to, e.g. `transactions`. */
  readonly probe: string;
  readonly grade: LoadGrade;
  readonly message: string;
  /** When the phase began (epoch ms) and how long it ran: phases of a probe follow one another, with gaps. */
  readonly startedAt: number;
  readonly durationMs: number;
}

/**
 * A phase as k6 ran it: from the instances' common start (epoch ms) on its schedule, cut short where a signal
 * stopped the run (`stoppedAtMs` after that start), not started at all when the signal came first.
 */
export const phaseAsRun = (
  plan: Pick<PhasePlan, 'name' | 'probe' | 'startMs' | 'durationMs'>,
  verdict: { readonly grade: LoadGrade; readonly message: string },
  k6StartedAt: number,
  stoppedAtMs = Number.POSITIVE_INFINITY,
): GradedPhase => ({
  name: plan.name,
  probe: plan.probe,
  grade: verdict.grade,
  message: verdict.message,
  startedAt: k6StartedAt + plan.startMs,
  durationMs: Math.max(0, Math.min(plan.durationMs, stoppedAtMs - plan.startMs)),
});

export interface LoadJUnitOptions {
  /** The run's wall-clock time: probes of different buckets run side by side. */
  readonly runMs: number;
  readonly properties: Readonly<Record<string, string>>;
  readonly strict?: boolean;
  readonly hostname?: string;
}

export const toLoadJUnit = (phases: readonly GradedPhase[], options: LoadJUnitOptions): string =>
  junitXml({
    name: 'harness load',
    suites: [...new Set(phases.map((p) => p.probe))].map((probe) => ({
      name: `harness load: ${probe}`,
      cases: phases
        .filter((p) => p.probe === probe)
        .sort((a, b) => a.startedAt - b.startedAt)
        .map((p) => ({
          classname: `load.${p.probe}`,
          name: p.name,
          grade: p.grade,
          message: p.message,
          details: p.message,
          // A load phase is only ever skipped by the plan the user chose; the exit code ignores it.
          skipByChoice: true,
          startedAt: p.startedAt,
          durationMs: p.durationMs,
        })),
    })),
    durationMs: options.runMs,
    properties: options.properties,
    strict: options.strict === true,
    ...(options.hostname === undefined ? {} : { hostname: options.hostname }),
  });
