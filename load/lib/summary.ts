// handleSummary's side: k6's end-of-test data turned into harness's LoadSummary, plus the text k6 prints.
import { phases, target } from './config.ts';
import { slotsOf } from './options.ts';
import { judge, type LoadSummary, type PhaseResult } from './verdict.ts';

interface MetricValues {
  readonly count?: number;
  readonly rate?: number;
  readonly max?: number;
}
interface SummaryData {
  readonly metrics: Readonly<Record<string, { values: MetricValues } | undefined>>;
}

export const loadSummary = (data: SummaryData, instances: number): LoadSummary => {
  const value = (metric: string, scenario: string, field: keyof MetricValues, extra = '') =>
    data.metrics[`${metric}{scenario:${scenario}${extra}}`]?.values[field];
  const results: PhaseResult[] = phases.map((plan) => {
    const count = (metric: string, extra = '') => value(metric, plan.name, 'count', extra) ?? 0;
    const limited = count('harness_limited');
    const slots = Array.from({ length: slotsOf(plan) }, (_, slot) => slot);
    return {
      plan,
      offered: count('iterations') + count('dropped_iterations'),
      admitted: count('harness_admitted'),
      limited,
      refused: count('harness_refused'),
      dropped: count('dropped_iterations'),
      retryAfterValid: limited === 0 ? undefined : value('harness_retry_after_valid', plan.name, 'rate'),
      retryAfterMax: limited === 0 ? undefined : value('harness_retry_after_seconds', plan.name, 'max'),
      slots: {
        admitted: slots.map((slot) => count('harness_admitted', `,slot:${slot}`)),
        limited: slots.map((slot) => count('harness_limited', `,slot:${slot}`)),
      },
    };
  });
  return { target: target.base_url, generatedAt: new Date().toISOString(), instances, phases: results };
};

/** One line per phase; an instance of several shows its share only, since verdicts need the merged counts. */
export const summaryText = (summary: LoadSummary): string =>
  `${summary.phases
    .map((p) => {
      if (summary.instances > 1) {
        return `share  ${p.plan.name.padEnd(32)} admitted ${p.admitted}, 429 ${p.limited} (harness merges the instances)`;
      }
      const verdict = judge(p);
      return `${verdict.ok ? 'PASS' : 'FAIL'}  ${p.plan.name.padEnd(32)} ${verdict.message}`;
    })
    .join('\n')}\n`;
