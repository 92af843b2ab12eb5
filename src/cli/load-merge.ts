// `harness load merge FILE...`: runners' summaries (from k6-operator pods, or kept by `harness load --instances`)
// graded as one run, with the reports and exit codes of `harness load`. The merge checks the set first
// (core/runners.ts): a lost, doubled, foreign or failed runner leaves the phases INCONCLUSIVE, naming it.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { mergeSummaries, type SourcedSummary } from '../../core/evidence.ts';
import { judge } from '../../core/judged.ts';
import { summariesInLogs } from '../../core/summary-markers.ts';
import { InputError } from '../errors.ts';
import { notARunnerSummary, readInput, refuseOtherPlans, runnerSummaryOf } from '../k6-driver/merge-input.ts';
import { runnerFile } from '../k6-driver/run.ts';
import { complain, terminalLines, tty } from '../printable.ts';
import { judgedRun } from '../report/load-reports.ts';
import type { LoadMergeOptions } from './commands.ts';
import { type ExitCode, exitWith } from './exit-codes.ts';
import { finishLoad, loadReportProperties, loadStream } from './load.ts';
import { reportDirFor } from './report-dir.ts';

/** The reports' names: `load-merged-summary.json`, `load-merged.xml`. */
const LABEL = 'merged';

const fromSummaryFile = (file: string): SourcedSummary => {
  const text = readInput(file);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new InputError(`${file}: not JSON`);
  }
  return { source: file, summary: runnerSummaryOf(value, file) };
};

/**
 * Every block in the logs; a cut-off or unreadable one is said on stderr and left out (its segment shows missing), as
 * a log may lose its end. A whole runner summary with impossible fields was forged or corrupted: exit 2, as in a file.
 */
const fromLogFiles = (files: readonly string[]): SourcedSummary[] => {
  const found: SourcedSummary[] = [];
  for (const file of files) {
    for (const { source, json } of summariesInLogs(readInput(file), file)) {
      let value: unknown;
      try {
        value = json === undefined ? undefined : JSON.parse(json);
      } catch {
        value = undefined;
      }
      const why = value === undefined ? 'cut off' : notARunnerSummary(value);
      if (why) complain(tty`harness: ${source}: summary block ${why}: that runner counts as missing`);
      else found.push({ source, summary: runnerSummaryOf(value, source) });
    }
  }
  if (found.length === 0)
    throw new InputError(`--from-logs ${files.join(' ')}: no harness runner summary between markers`);
  return found;
};

export const runLoadMergeCommand = async (
  files: readonly string[],
  options: LoadMergeOptions,
): Promise<{ exitCode: ExitCode; dir: string; files: readonly string[] }> => {
  if (files.length === 0) throw new InputError('load merge: no summary files given');
  const set = options.fromLogs ? fromLogFiles(files) : files.map(fromSummaryFile);
  refuseOtherPlans(set);
  const dir = await reportDirFor(options.reportDir);
  const kept: string[] = [];
  if (options.fromLogs) {
    // What came out of the logs, kept as `harness load --instances` keeps its runners' summaries.
    mkdirSync(join(dir, 'runners'), { recursive: true });
    set.forEach(({ summary }, i) => {
      const file = runnerFile(dir, i);
      writeFileSync(file, `${JSON.stringify(summary, null, 2)}\n`);
      kept.push(file);
    });
  }
  const summary = mergeSummaries(set);
  const starts = (summary.runners ?? []).map((r) => r.startAt);
  const phasesEnd = Math.max(0, ...summary.phases.map((p) => p.plan.startMs + p.plan.durationMs));
  const run = judgedRun(judge(summary), Math.min(...starts), {
    label: LABEL,
    runMs: phasesEnd,
    properties: loadReportProperties(summary.target, set.length),
    strict: options.strict === true,
  });
  // No progress to show: what the stream says besides the reports is printed as it comes.
  const stream = loadStream(dir, (event) => {
    if (event.type === 'note') complain(terminalLines(event.text));
  });
  const finished = await finishLoad(stream, run, { files: kept, exitCodes: [] });
  return { exitCode: finished.exitCode, dir, files: finished.files };
};

export const loadMerge = async (files: string[], options: LoadMergeOptions): Promise<void> => {
  exitWith((await runLoadMergeCommand(files, options)).exitCode);
};
