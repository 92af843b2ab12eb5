// What `harness load merge` takes as a runner's summary: a file or log read as every file read back is (read-back.ts),
// JSON, one runner's summary (summary-schema.ts) and counts k6 could have recorded. Anything else is bad input, exit 2
// naming the file and the field: a forged or corrupt summary is never graded, and never reaches the merge to fail
// there with a trace.
import type { LoadSummary, SourcedSummary } from '../../core/evidence.ts';
import { phaseGradeSchema } from '../compare/run-docs.ts';
import { InputError } from '../errors.ts';
import { printable } from '../printable.ts';
import { schemaFault } from '../schema-fault.ts';
import { validatorOf } from '../validator.ts';
import { gridTooLarge, impossibleCount, loadSummarySchema } from './summary-schema.ts';

// A summary file is reportJson's output: the summary and, from a runner that ran alone, its grades, which the merge
// makes again from the counts and so never reads; they are held to their schema all the same, as compare holds them.
const fileSchema = {
  ...loadSummarySchema,
  properties: { ...loadSummarySchema.properties, grades: { type: 'array', items: phaseGradeSchema } },
} as const;
// allErrors off: the first fault is the one line said, and a forged file of a million bad counts costs no more.
const summaryValidator = validatorOf<LoadSummary>({ strict: true, allErrors: false }, fileSchema);

/** A runner's summary file or log: read as every file harness reads back is (load-merge.ts names it so). */
export { readBack as readInput } from '../read-back.ts';

/** Why a parsed value is not one runner's summary at all (these words are kept: users and tests know them). */
export const notARunnerSummary = (value: unknown): string | undefined => {
  const summary = value as Partial<LoadSummary> | null;
  if (typeof summary !== 'object' || summary === null || !Array.isArray(summary.phases))
    return 'not a harness load summary';
  if (summary.runners !== undefined) return 'a merged report, not one runner summary';
  const runner = summary.runner;
  if (typeof runner !== 'object' || typeof runner.segment !== 'string' || typeof runner.runId !== 'string')
    return 'a load summary that does not say which runner wrote it (written by a harness before runner summaries)';
  return undefined;
};

/**
 * The summary, once it is one runner's whole and possible summary; else a InputError naming `source` and the field.
 * Its names and fields come from the file, so the line is made printable.
 */
export const runnerSummaryOf = (value: unknown, source: string): LoadSummary => {
  const why = notARunnerSummary(value);
  if (why) throw new InputError(printable(`${source}: ${why}`));
  const validate = summaryValidator();
  if (!validate(value))
    throw new InputError(printable(`${source}: ${schemaFault(validate.errors![0]!, 'a load summary')}`));
  for (const [i, phase] of value.phases.entries()) {
    const impossible = impossibleCount(phase, `/phases/${i}`);
    if (impossible) throw new InputError(printable(`${source}: ${impossible}`));
  }
  const tooLarge = gridTooLarge(value.phases);
  if (tooLarge) throw new InputError(printable(`${source}: ${tooLarge}`));
  return value;
};

/**
 * Runners under one run id and plan digest ran one plan, so their phases' plans are the same: a summary whose are
 * not was forged or corrupted (the merge would add one phase's counts to another's, or find none to add).
 */
export const refuseOtherPlans = (set: readonly SourcedSummary[]): void => {
  const firstOf = new Map<string, SourcedSummary>();
  for (const entry of set) {
    const { runId, planDigest } = entry.summary.runner!;
    const first = firstOf.get(`${runId} ${planDigest}`);
    if (first === undefined) {
      firstOf.set(`${runId} ${planDigest}`, entry);
      continue;
    }
    const [ours, theirs] = [entry.summary.phases, first.summary.phases];
    const of = `of ${first.source}, which has the same run id and plan sha256`;
    if (ours.length !== theirs.length)
      throw new InputError(
        printable(`${entry.source}: /phases: ${ours.length} phases, not the ${theirs.length} ${of}`),
      );
    const i = ours.findIndex((phase, i) => JSON.stringify(phase.plan) !== JSON.stringify(theirs[i]!.plan));
    if (i !== -1) throw new InputError(printable(`${entry.source}: /phases/${i}/plan: not the plan ${of}`));
  }
};
