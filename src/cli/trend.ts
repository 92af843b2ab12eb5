// `harness trend DIR`: one HTML page of every run in a report folder. Exit 0 with the page written, 2 when the folder
// holds no run, 6 when the page cannot be written.
import { basename, dirname, join } from 'node:path';
import { isHarnessError } from '../errors.ts';
import { plural } from '../plural.ts';
import { complain, say, tty } from '../printable.ts';
import { writeWhole } from '../report/atomic.ts';
import { readRuns } from '../trend/runs.ts';
import { trendPage } from '../trend/trend-page.ts';
import { exitWith, REPORTS_NOT_WRITTEN } from './exit-codes.ts';
import type { TrendOptions } from './report-commands.ts';

export const trend = async (dir: string, options: TrendOptions): Promise<void> => {
  const found = readRuns(dir, { includePartial: options.includePartial === true });
  for (const why of found.leftOut) say(tty`left out: ${why}`);
  const out = options.out ?? join(dir, 'trend.html');
  try {
    const [file] = await writeWhole(dirname(out), [[basename(out), trendPage(dir, found)]]);
    say(tty`report: ${file ?? out}`);
  } catch (error) {
    if (!isHarnessError(error, 'HARNESS_REPORT_WRITE')) throw error;
    complain(tty`harness: ${error.message}`);
    exitWith(REPORTS_NOT_WRITTEN);
  }
  const kinds = (n: number, what: string) => plural(n, `${what} run`);
  const conformance = found.runs.filter((r) => r.conformance).length;
  const load = found.runs.filter((r) => r.load.length > 0).length;
  say(
    tty`trend: ${kinds(conformance, 'conformance')} and ${kinds(load, 'load')}, ${found.leftOut.length} left out`,
  );
};
