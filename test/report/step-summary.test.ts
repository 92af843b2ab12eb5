// The job summary's load table: a phase's name as a code span that shows it exactly. mdText's backslashes were put
// inside backticks: there a backslash shows as itself and an escaped backtick closes the span.
import { expect, it } from 'vitest';
import type { GradedPhase } from '../../src/report/junit.ts';
import { loadMarkdown } from '../../src/report/step-summary.ts';

const phase = (name: string): GradedPhase => ({
  name,
  probe: 'transactions',
  grade: 'FAIL',
  message: 'why',
  startedAt: 0,
  durationMs: 1000,
});

const rowOf = (name: string): string | undefined =>
  loadMarkdown('run', [phase(name)], '1 phase: 1 FAIL')
    .split('\n')
    .find((line) => line.startsWith('| ❌ FAIL |'));

it('shows a phase name with a backtick and a backslash exactly, in a span no backtick inside closes', () => {
  expect(rowOf('burst`x\\*y')).toBe('| ❌ FAIL | ``burst`x\\*y`` | why |');
});

it('keeps a pipe in a phase name inside its table cell', () => {
  expect(rowOf('a|b')).toBe('| ❌ FAIL | `a\\|b` | why |');
});
