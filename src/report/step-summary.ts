// GitHub's job summary: where a job's page shows Markdown ($GITHUB_STEP_SUMMARY names the file), each run appends
// its verdicts, so a pipeline needs no step of its own to put them there. conformance appends what conformance.md
// holds; load, the table below.
import { appendFile } from 'node:fs/promises';
import { type Grade, gradeRank } from '../../core/grade.ts';
import type { GradedPhase } from './junit.ts';
import { mdCode, mdText } from './markdown-text.ts';

/** A grade's status mark, before the word (never instead of it: a screen reader and a log read the word). */
const STATUS_MARKS: Readonly<Record<Grade, string>> = {
  ERROR: '🛑',
  FAIL: '❌',
  INCONCLUSIVE: '❔',
  WARN: '⚠️',
  SKIP: '⏭️',
  INFO: 'ℹ️',
  PASS: '✅',
};

/** `❌ FAIL`: the grade as a job page shows it. */
export const marked = (grade: Grade, text: string = grade): string => `${STATUS_MARKS[grade]} ${text}`;

/**
 * The page of the job's run, where its artifacts are listed, when GitHub's variables name it: each must be what
 * GitHub sets (an http(s) origin, owner/name, a number), or no link at all rather than one a variable could bend.
 */
export const artifactsUrl = (env: NodeJS.ProcessEnv = process.env): string | undefined => {
  const { GITHUB_SERVER_URL: server, GITHUB_REPOSITORY: repository, GITHUB_RUN_ID: runId } = env;
  if (server === undefined || repository === undefined || runId === undefined) return undefined;
  let origin: URL;
  try {
    origin = new URL(server);
  } catch {
    return undefined;
  }
  if (!/^https?:$/.test(origin.protocol) || origin.href !== `${origin.origin}/`) return undefined;
  if (!/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/.test(repository) || !/^\d+$/.test(runId)) return undefined;
  return `${origin.origin}/${repository}/actions/runs/${runId}#artifacts`;
};

/** The line that sends a reader to the reports themselves; none off GitHub. */
export const artifactsLine = (url: string | undefined): string[] =>
  url === undefined ? [] : [`Reports and evidence: [this run's artifacts](${url})`, ''];

/** A load run's verdicts: the worst grade's mark first, failures first, a row per phase, the counts last. */
export const loadMarkdown = (
  label: string,
  phases: readonly GradedPhase[],
  counts: string,
  artifacts: string | undefined = artifactsUrl(),
): string => {
  const sorted = [...phases].sort((a, b) => gradeRank(a.grade) - gradeRank(b.grade));
  const rows = sorted.map((p) => `| ${marked(p.grade)} | ${mdCode(p.name)} | ${mdText(p.message)} |`);
  return [
    `## ${marked(sorted[0]?.grade ?? 'INCONCLUSIVE', `harness load: ${mdText(label, 'prose')}`)}`,
    '',
    mdText(counts, 'prose'),
    '',
    ...artifactsLine(artifacts),
    '| grade | phase | why |',
    '|---|---|---|',
    ...rows,
    '',
  ].join('\n');
};

/**
 * Appends `markdown` to the job summary when the job has one; a line for stderr when that fails (the run's reports
 * and exit code stand: the job page is a copy of them).
 */
export const appendStepSummary = async (
  markdown: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<string | undefined> => {
  const file = env.GITHUB_STEP_SUMMARY;
  if (!file) return undefined;
  try {
    await appendFile(file, `${markdown.trimEnd()}\n\n`);
    return undefined;
  } catch (error) {
    return `harness: could not add the verdicts to $GITHUB_STEP_SUMMARY (${file}): ${(error as NodeJS.ErrnoException).code ?? String(error)}`;
  }
};
