// What a person reads on stdout: the plan (--dry-run), or the run's outcome with failures first and the summary last.
import type { Difference } from './baseline.ts';
import { GRADES, gradeRank } from './grades.ts';
import { planOf, type Selected } from './runner.ts';
import type { Target } from './target.ts';
import type { RunReport } from './types.ts';

const out = (line = ''): void => console.log(line);

export const printPlan = (selection: readonly Selected[], target: Target): void => {
  const running = selection.filter((s) => s.excluded === undefined);
  out(
    `plan against ${target.profile.base_url}: ${running.length} checks run, ${selection.length - running.length} do not`,
  );
  for (const { check } of running) out(`  ${check.id.padEnd(48)} ${check.clause}`);
  const excluded = selection.filter((s) => s.excluded !== undefined);
  if (excluded.length > 0) out('not run:');
  for (const { check, excluded: why } of excluded) out(`  ${check.id.padEnd(48)} ${why}`);
  const perEndpoint = new Map<string, { requests: number; margin: number }>();
  for (const item of planOf(selection, target)) {
    const row = perEndpoint.get(item.endpoint) ?? { requests: 0, margin: 0 };
    perEndpoint.set(item.endpoint, {
      requests: row.requests + item.requests,
      margin: row.margin + item.margin,
    });
  }
  out('requests per endpoint (planned, plus the retry margin used only to confirm a result):');
  let total = 0;
  let margin = 0;
  for (const [endpoint, row] of [...perEndpoint].sort()) {
    out(`  ${endpoint.padEnd(60)} ${String(row.requests).padStart(5)}  (+${row.margin})`);
    total += row.requests;
    margin += row.margin;
  }
  out(`total: ${total} requests, at most ${total + margin} with the retry margin; nothing was sent`);
};

export const printSummary = (
  report: RunReport,
  files: readonly string[],
  differences: readonly Difference[],
): void => {
  const notable = report.checks
    .filter((c) => c.grade !== 'PASS')
    .sort((a, b) => gradeRank(a.grade) - gradeRank(b.grade));
  out();
  for (const check of notable)
    out(`${check.grade.padEnd(12)} ${check.id.padEnd(44)} ${check.clause.padEnd(16)} ${check.message}`);
  if (differences.length > 0) {
    out(`differences from the baseline (${differences.length}):`);
    for (const d of differences) out(`  ${d.id}: expected ${d.expected}, got ${d.actual}`);
  }
  if (files.length > 0) out(`reports: ${files.join(', ')}`);
  const reasons = report.notCertifiable;
  out(
    `certifiable: ${report.certifiable ? 'yes' : `no: ${reasons.slice(0, 3).join('; ')}${reasons.length > 3 ? `; and ${reasons.length - 3} more` : ''}`}`,
  );
  // The server's grades, then apart from them any fault of harness itself.
  const counts = GRADES.filter((g) => g !== 'ERROR')
    .map((g) => `${report.counts[g]} ${g}`)
    .join(', ');
  const errors =
    report.counts.ERROR > 0 ? `; ${report.counts.ERROR} ERROR of harness itself, no verdict` : '';
  out(
    `summary: ${report.checks.length} checks in ${(report.durationMs / 1000).toFixed(1)} s: ${counts}${errors}`,
  );
};
