// JUnit XML for `harness load`, so the CI systems that read conformance.xml show load phases too: one testsuite per
// probe, one testcase per phase. FAIL is a failure; INCONCLUSIVE and SKIP are skipped with the reason (the run could
// not decide, which is no verdict on the server); WARN passes and says so in system-out.
import { escapeAttr, escapeText } from './escape.ts';

export type PhaseGrade = 'PASS' | 'FAIL' | 'WARN' | 'INCONCLUSIVE' | 'SKIP';

export interface GradedPhase {
  /** The k6 scenario, e.g. `over_transactions`. */
  readonly name: string;
  /** The probe it belongs to, e.g. `transactions`. */
  readonly probe: string;
  readonly grade: PhaseGrade;
  readonly message: string;
  readonly durationMs: number;
}

const seconds = (ms: number): string => (ms / 1000).toFixed(3);

const attrs = (values: Record<string, string | number>): string =>
  Object.entries(values)
    .map(([name, value]) => ` ${name}="${escapeAttr(String(value))}"`)
    .join('');

const testcase = (phase: GradedPhase): string => {
  const open = `    <testcase${attrs({ classname: `load.${phase.probe}`, name: phase.name, time: seconds(phase.durationMs) })}`;
  switch (phase.grade) {
    case 'FAIL':
      return `${open}>\n      <failure${attrs({ message: phase.message, type: 'FAIL' })}>${escapeText(phase.message)}</failure>\n    </testcase>`;
    case 'INCONCLUSIVE':
    case 'SKIP':
      return `${open}>\n      <skipped${attrs({ message: `${phase.grade}: ${phase.message}` })}/>\n    </testcase>`;
    case 'WARN':
      return `${open}>\n      <system-out>${escapeText(`WARN: ${phase.message}`)}</system-out>\n    </testcase>`;
    case 'PASS':
      return `${open}/>`;
  }
};

const tally = (phases: readonly GradedPhase[]) => ({
  tests: phases.length,
  failures: phases.filter((p) => p.grade === 'FAIL').length,
  errors: 0,
  skipped: phases.filter((p) => p.grade === 'INCONCLUSIVE' || p.grade === 'SKIP').length,
  time: seconds(phases.reduce((sum, p) => sum + p.durationMs, 0)),
});

export const toLoadJUnit = (phases: readonly GradedPhase[], runMs: number): string => {
  const probes = [...new Set(phases.map((p) => p.probe))];
  const suites = probes.map((probe) => {
    const members = phases.filter((p) => p.probe === probe);
    return [
      `  <testsuite${attrs({ name: `harness load: ${probe}`, ...tally(members) })}>`,
      ...members.map(testcase),
      '  </testsuite>',
    ].join('\n');
  });
  // Probes of different buckets run side by side: the run's wall-clock time, not the sum of its phases.
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites${attrs({ name: 'harness load', ...tally(phases), time: seconds(runMs) })}>`,
    ...suites,
    '</testsuites>',
    '',
  ].join('\n');
};
