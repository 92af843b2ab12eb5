// How much of SPEC.md a run verified, in words every output puts beside its verdict: a green PASS over a run that
// skipped a third of its checks would otherwise read as a full certification.

import { plural } from '../plural.ts';
import type { RunReport } from '../runner/types.ts';

/** The most common reasons named, so the sentence stays one line. */
const REASONS_SHOWN = 3;

/** SKIP reasons, most frequent first, each with how many checks it stopped. */
export const skipReasons = (
  report: RunReport,
): readonly { readonly reason: string; readonly checks: number }[] => {
  const counts = new Map<string, number>();
  for (const check of report.checks) {
    if (check.grade === 'SKIP') counts.set(check.message, (counts.get(check.message) ?? 0) + 1);
  }
  return [...counts].map(([reason, checks]) => ({ reason, checks })).sort((a, b) => b.checks - a.checks);
};

/** "40 of 71 checks ran; 25 skipped: 9 because …" or "all 71 checks ran". Untrusted text: escape at the sink. */
export const coverageSentence = (report: RunReport): string => {
  const total = report.checks.length;
  const skipped = report.counts.SKIP;
  if (skipped === 0) return `all ${plural(total, 'check')} ran`;
  const reasons = skipReasons(report);
  const named = reasons
    .slice(0, REASONS_SHOWN)
    .map(({ reason, checks }) => `${checks} because ${reason}`)
    .join('; ');
  const more = reasons.length > REASONS_SHOWN ? `; ${reasons.length - REASONS_SHOWN} other reasons` : '';
  return `${total - skipped} of ${plural(total, 'check')} ran; ${skipped} skipped: ${named}${more}`;
};
