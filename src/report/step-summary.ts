// GitHub's job summary: where a job's page shows Markdown ($GITHUB_STEP_SUMMARY names the file), each run appends
// its verdicts, so a pipeline needs no step of its own to put them there. conformance appends what conformance.md
// holds; load, the table below.
import { appendFile } from 'node:fs/promises';
import { gradeRank } from '../../core/grade.ts';
import type { GradedPhase } from './junit.ts';
import { mdCode, mdText } from './markdown-text.ts';

/** A load run's verdicts: failures first, a row per phase, the counts last. */
export const loadMarkdown = (label: string, phases: readonly GradedPhase[], counts: string): string => {
  const rows = [...phases]
    .sort((a, b) => gradeRank(a.grade) - gradeRank(b.grade))
    .map((p) => `| ${p.grade} | ${mdCode(p.name)} | ${mdText(p.message)} |`);
  return [
    `## harness load: ${mdText(label, 'prose')}`,
    '',
    '| grade | phase | why |',
    '|---|---|---|',
    ...rows,
    '',
    mdText(counts, 'prose'),
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
