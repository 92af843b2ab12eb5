// `harness load merge FILE...`: runners' summaries (from k6-operator pods, or kept by `harness load --instances`)
// graded as one run, with the reports and exit codes of `harness load`. The merge checks the set first
// (load/lib/runners.ts): a lost, doubled, foreign or failed runner leaves the phases INCONCLUSIVE, naming it.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type LoadSummary, mergeSummaries, type SourcedSummary } from '../../load/lib/evidence.ts';
import { summariesInLogs } from '../../load/lib/summary-markers.ts';
import { UsageError } from './errors.ts';
import { writeLoadReports } from './load-reports.ts';
import { reportDirFor } from './report-dir.ts';
import { harnessVersion } from './version.ts';

export interface LoadMergeOptions {
  reportDir: string;
  fromLogs?: boolean;
  strict?: boolean;
}

/** The reports' names: `load-merged-summary.json`, `load-merged.xml`. */
const LABEL = 'merged';

/** Why a parsed file is not one runner's summary, or undefined when it is. */
const notARunnerSummary = (value: unknown): string | undefined => {
  const summary = value as Partial<LoadSummary> | null;
  if (typeof summary !== 'object' || summary === null || !Array.isArray(summary.phases))
    return 'not a harness load summary';
  if (summary.runners !== undefined) return 'a merged report, not one runner summary';
  const runner = summary.runner;
  if (typeof runner !== 'object' || typeof runner.segment !== 'string' || typeof runner.runId !== 'string')
    return 'a load summary that does not say which runner wrote it (written by a harness before runner summaries)';
  return undefined;
};

const read = (file: string): string => {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new UsageError(`${file}: cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
};

const fromSummaryFile = (file: string): SourcedSummary => {
  let value: unknown;
  try {
    value = JSON.parse(read(file));
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`${file}: not JSON`);
  }
  const why = notARunnerSummary(value);
  if (why) throw new UsageError(`${file}: ${why}`);
  return { source: file, summary: value as LoadSummary };
};

/** Every block in the logs; a cut-off or unreadable one is said on stderr and left out (its segment shows missing). */
const fromLogFiles = (files: readonly string[]): SourcedSummary[] => {
  const found: SourcedSummary[] = [];
  for (const file of files) {
    for (const { source, json } of summariesInLogs(read(file), file)) {
      let value: unknown;
      try {
        value = json === undefined ? undefined : JSON.parse(json);
      } catch {
        value = undefined;
      }
      const why = value === undefined ? 'cut off' : notARunnerSummary(value);
      if (why) console.error(`harness: ${source}: summary block ${why}: that runner counts as missing`);
      else found.push({ source, summary: value as LoadSummary });
    }
  }
  if (found.length === 0)
    throw new UsageError(`--from-logs ${files.join(' ')}: no harness runner summary between markers`);
  return found;
};

export const runLoadMergeCommand = async (
  files: readonly string[],
  options: LoadMergeOptions,
): Promise<{ exitCode: number; dir: string; files: readonly string[] }> => {
  if (files.length === 0) throw new UsageError('load merge: no summary files given');
  const set = options.fromLogs ? fromLogFiles(files) : files.map(fromSummaryFile);
  const dir = await reportDirFor(options.reportDir);
  const kept: string[] = [];
  if (options.fromLogs) {
    // What came out of the logs, kept as `harness load --instances` keeps its runners' summaries.
    mkdirSync(join(dir, 'runners'), { recursive: true });
    set.forEach(({ summary }, i) => {
      const file = join(dir, 'runners', `runner-${i + 1}.json`);
      writeFileSync(file, `${JSON.stringify(summary, null, 2)}\n`);
      kept.push(file);
    });
  }
  const summary = mergeSummaries(set);
  const starts = (summary.runners ?? []).map((r) => r.startAt);
  const phasesEnd = Math.max(0, ...summary.phases.map((p) => p.plan.startMs + p.plan.durationMs));
  const { exitCode, files: written } = await writeLoadReports({
    dir,
    label: LABEL,
    summary,
    startedAt: Math.min(...starts),
    junit: {
      runMs: phasesEnd,
      properties: {
        'harness.version': harnessVersion(),
        'target.base_url': summary.target,
        'k6.instances': String(set.length),
      },
      strict: options.strict === true,
    },
    files: kept,
    say: (line) => console.error(line),
  });
  return { exitCode, dir, files: written };
};

export const loadMerge = async (files: string[], options: LoadMergeOptions): Promise<void> => {
  process.exitCode = (await runLoadMergeCommand(files, options)).exitCode;
};
