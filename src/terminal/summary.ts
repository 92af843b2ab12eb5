// What a person reads on stdout: the plan (--dry-run), or the run's results with failures first and the summary last.

import { plural } from '../plural.ts';
import { joinTerminal, say, terminalTable, tty } from '../printable.ts';
import type { BucketLimit, Target } from '../profile/target.ts';
import { coverageSentence } from '../report/coverage.ts';
import { reportsLine } from '../report/reports-line.ts';
import type { Difference } from '../runner/baseline.ts';
import { TOKEN_ENDPOINT_KEY } from '../runner/counting-client.ts';
import { GRADES, gradeRank } from '../runner/grades.ts';
import { planOf, type Selected } from '../runner/plan.ts';
import type { PlanItem, RunReport } from '../runner/types.ts';
import type { BucketId, EndpointKey } from '../spec/index.ts';
import { terminalWidth } from '../text-table.ts';
import { type GradePainter, gradePainter } from './colour.ts';
import { proofLines } from './proof.ts';

const formatSeconds = (ms: number): string =>
  ms < 120_000 ? `${Math.round(ms / 1000)} s` : `${Math.round(ms / 60_000)} min`;

/** --dry-run: the selection as planChecks (plan-skips.ts) left it, which excluded, saying why, what the run SKIPs. */
export const printPlan = (
  selection: readonly Selected[],
  target: Target,
  {
    maxRequests,
    deadlineMs,
    hide,
  }: {
    maxRequests?: number;
    deadlineMs: number;
    /** The profile's redaction (a ${VAR} base URL). */
    hide: (text: string) => string;
  },
): void => {
  const listed = selection.filter((s) => !s.deselected);
  const running = listed.filter((s) => s.excluded === undefined);
  const leftOut = selection.length - listed.length;
  say(
    tty`plan against ${hide(target.profile.base_url)}: ${plural(running.length, 'check')} run, ${listed.length - running.length} do not${
      leftOut > 0 ? ` (${leftOut} more left out by --only/--skip)` : ''
    }`,
  );
  for (const line of terminalTable(
    running.map(({ check }) => [check.id, check.clause]),
    { indent: '  ' },
  ))
    say(line);
  const excluded = listed.filter((s) => s.excluded !== undefined);
  if (excluded.length > 0) say(tty`not run:`);
  for (const line of terminalTable(
    excluded.map((s) => [s.check.id, s.excluded ?? '']),
    { indent: '  ', ...terminalWidth(process.stdout) },
  ))
    say(line);
  const perEndpoint = new Map<string, { requests: number; margin: number }>();
  const plan = planOf(selection, target);
  for (const item of plan) {
    const row = perEndpoint.get(item.endpoint) ?? { requests: 0, margin: 0 };
    perEndpoint.set(item.endpoint, {
      requests: row.requests + item.requests,
      margin: row.margin + item.margin,
    });
  }
  say(tty`requests per endpoint (planned, plus the retry margin used only to confirm a result):`);
  const endpoints = [...perEndpoint].sort();
  for (const line of terminalTable(
    endpoints.map(([endpoint, row]) => [endpoint, String(row.requests), `(+${row.margin})`]),
    { indent: '  ', right: [1] },
  ))
    say(line);
  const total = endpoints.reduce((sum, [, row]) => sum + row.requests, 0);
  const margin = endpoints.reduce((sum, [, row]) => sum + row.margin, 0);
  say(tty`total: ${total} requests, at most ${total + margin} with the retry margin; nothing was sent`);
  if (maxRequests !== undefined && total + margin > maxRequests) {
    say(
      tty`--max-requests ${maxRequests}: each check sets its requests and margin aside before it starts; those that do not fit SKIP`,
    );
  }
  say(tty`the run ends by its deadline, ${formatSeconds(deadlineMs)} after it starts (--deadline)`);
  say(tty`limits the tenant shares with its other integrations (SPEC.md §8 rule 1), after the run:`);
  const aftermath = bucketAftermath(plan, target).map((row) => [
    row.bucket,
    `${row.limit.count}/${row.limit.per}`,
    `${row.requests} (+${row.margin})`,
    row.limitedForMs === 0
      ? `never limited by this run (at most ${row.requests + row.margin} of ${row.limit.count} a window)`
      : `limited for up to ${row.limitedForMs / 1000} s after the run`,
  ]);
  for (const line of terminalTable(aftermath, { indent: '  ', right: [2] })) say(line);
};

export interface BucketAftermath {
  readonly bucket: BucketId;
  readonly limit: BucketLimit;
  readonly requests: number;
  readonly margin: number;
  /** How long the tenant may still be refused once the run is over; 0 when the plan cannot reach the limit. */
  readonly limitedForMs: number;
}

/**
 * Per bucket the plan sends into, how long it leaves the tenant limited. A plan that can reach the limit ends by
 * spending it (a probe's last burst, the independence check), and every faithful limiter admits a full limit again
 * at most a window later: a fixed window ends, a sliding log's requests leave it, a token bucket refills.
 */
export const bucketAftermath = (plan: readonly PlanItem[], target: Target): BucketAftermath[] => {
  const rows = new Map<BucketId, { requests: number; margin: number }>();
  for (const item of plan) {
    if (item.endpoint === TOKEN_ENDPOINT_KEY) continue;
    const { bucket } = target.endpoint(item.endpoint as EndpointKey);
    const row = rows.get(bucket) ?? { requests: 0, margin: 0 };
    rows.set(bucket, { requests: row.requests + item.requests, margin: row.margin + item.margin });
  }
  return [...rows].sort().map(([bucket, row]) => {
    const limit = target.limitOf(bucket);
    const limitedForMs = row.requests + row.margin < limit.count ? 0 : limit.windowMs;
    return { bucket, limit, ...row, limitedForMs };
  });
};

export interface SummaryOptions {
  /** PASS lines too: the user named the checks (--only, --skip), so each is worth its line. */
  readonly everyCheck?: boolean;
  readonly paint?: GradePainter;
}

export const printSummary = (
  report: RunReport,
  files: readonly string[],
  differences: readonly Difference[],
  { everyCheck = false, paint = gradePainter(process.stdout) }: SummaryOptions = {},
): void => {
  const listed = report.checks
    .filter((c) => everyCheck || c.grade !== 'PASS')
    .sort((a, b) => gradeRank(a.grade) - gradeRank(b.grade));
  const rows = terminalTable(
    listed.map((c) => [c.grade, c.id, c.clause, c.message]),
    {
      style: (cell, column, row) => (column === 0 ? paint(listed[row]!.grade, cell) : cell),
      ...terminalWidth(process.stdout),
    },
  );
  for (const line of rows) say(line);
  for (const line of proofLines(report.checks)) say(line);
  if (differences.length > 0) {
    say(tty`differences from the baseline (${differences.length}):`);
    for (const d of differences) say(tty`  ${d.id}: expected ${d.expected}, got ${d.actual}`);
  }
  if (files.length > 0) say(tty`${reportsLine(files)}`);
  // Beside the verdict: a run that skipped a third of its checks must not read as a full one.
  say(tty`coverage: ${coverageSentence(report)}`);
  const reasons = report.notCertifiable;
  say(
    tty`certifiable: ${report.certifiable ? 'yes' : `no: ${reasons.slice(0, 3).join('; ')}${reasons.length > 3 ? `; and ${reasons.length - 3} more` : ''}`}`,
  );
  // The server's grades, then apart from them any fault of harness itself.
  const counts = joinTerminal(
    GRADES.filter((g) => g !== 'ERROR').map((g) =>
      report.counts[g] > 0 ? paint(g, tty`${report.counts[g]} ${g}`) : `0 ${g}`,
    ),
    ', ',
  );
  const errors =
    report.counts.ERROR > 0
      ? tty`; ${paint('ERROR', tty`${report.counts.ERROR} ERROR`)} of harness itself, no verdict`
      : '';
  say(
    tty`summary: ${plural(report.checks.length, 'check')} in ${(report.durationMs / 1000).toFixed(1)} s: ${counts}${errors}`,
  );
};
