// JUnit XML for `harness load`, so the CI systems that read conformance.xml show load phases too: one testsuite per
// probe, one testcase per phase, each grade shown as junitOutcome decides (an INCONCLUSIVE phase is an error, as it
// is exit 5, never a pass).
import type { PhasePlan } from '../../core/plan.ts';
import type { Grade } from '../runner/grades.ts';
import { junitXml } from './junit-xml.ts';

export type PhaseGrade = Extract<Grade, 'PASS' | 'FAIL' | 'WARN' | 'INCONCLUSIVE' | 'SKIP'>;

export interface GradedPhase {
  /** The k6 scenario, e.g. `over_transactions`. */
  readonly name: string;
  /** The probe it belongs to, e.g. `transactions`. */
  readonly probe: string;
  readonly grade: PhaseGrade;
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
  verdict: { readonly grade: PhaseGrade; readonly message: string },
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
