// `harness compare A B`: what changed between two runs, on stdout (failures first, the summary last) and as
// Markdown, HTML and JSON in --out. Exit 1 when a verdict got worse, 5 when one of A is no longer verified in B (no
// verdict: nothing got worse, and nothing shows it fixed), 0 otherwise, 2 when the two cannot be compared.
import { compareRuns } from '../compare/compare.ts';
import { comparisonHtml, comparisonJson, comparisonMarkdown, comparisonText } from '../compare/render.ts';
import { readRun } from '../compare/run-docs.ts';
import { isHarnessError } from '../errors.ts';
import { complain, say, tty } from '../printable.ts';
import { writeWhole } from '../report/atomic.ts';
import { reportsLine } from '../report/reports-line.ts';
import { exitWith, FAILED, NO_VERDICT, PASSED, REPORTS_NOT_WRITTEN } from './exit-codes.ts';
import type { CompareOptions } from './report-commands.ts';

export const compare = async (a: string, b: string, options: CompareOptions): Promise<void> => {
  const comparison = compareRuns(readRun(a), readRun(b), {
    limitPercent: options.limitTolerance,
    latencyPercent: options.latencyTolerance,
    latencyFloorMs: 5,
  });
  const lines = comparisonText(comparison);
  const summary = lines.pop()!;
  for (const line of lines) say(line);
  const verdict = comparison.worse ? FAILED : comparison.unverified ? NO_VERDICT : PASSED;
  let lost = false;
  try {
    const files = await writeWhole(options.out, [
      ['compare.md', comparisonMarkdown(comparison)],
      ['compare.html', comparisonHtml(comparison)],
      ['compare.json', comparisonJson(comparison)],
    ]);
    say(tty`${reportsLine(files)}`);
  } catch (error) {
    if (!isHarnessError(error, 'HARNESS_REPORT_WRITE')) throw error;
    complain(tty`harness: ${error.message}`);
    lost = true;
  }
  say(summary);
  exitWith(verdict, lost ? REPORTS_NOT_WRITTEN : PASSED);
};
