// Grades, and the GradedEnd a check throws to end with one and its reason. The grade is chosen where the check calls
// these, next to the SPEC.md sentence it enforces, never inferred later.
import type { Grade } from '../../core/grade.ts';
import type { LimitTimeline } from './limit-timeline.ts';

// Defined beside load's verdicts, which grade a subset of them; checks and reports take them from here.
export { GRADES, type Grade, gradeRank } from '../../core/grade.ts';

/** The grades that say the server breaks a rule (stated, or conventional). */
export type RuleBreachGrade = Extract<Grade, 'FAIL' | 'WARN'>;

/** What a check's result shows beyond its message and evidence. */
export interface Shown {
  /** A limit verdict's proof, drawn. */
  readonly timeline?: LimitTimeline;
  /**
   * How to reproduce it: a check in a bucket's lane is replayed (`harness replay`, and the probe's first request by
   * hand) unless it says 'by hand', the exchange it recorded last; every other check is reproduced by hand.
   */
  readonly reproduce?: 'by hand';
}

/** A passing check's result: its message, and what it shows besides. */
export interface Finding extends Shown {
  readonly message: string;
}

/**
 * How a check ends other than passing: thrown from inside the check, carrying its grade, one-line reason and what
 * the report shows of it, so the result comes back whole from where the grade was decided. A verdict, not a fault:
 * no HarnessError, so one that escaped a check would end the command as the bug it is.
 */
export class GradedEnd extends Error {
  override readonly name = 'GradedEnd';
  constructor(
    readonly grade: Exclude<Grade, 'PASS' | 'ERROR'>,
    message: string,
    /** A SKIP the user chose through the profile or the command line, not one the target forced (see skipByChoice). */
    readonly byChoice = false,
    readonly shown: Shown = {},
  ) {
    super(message);
  }
}

export const fail = (message: string, shown?: Shown): never => {
  throw new GradedEnd('FAIL', message, false, shown);
};
export const warn = (message: string): never => {
  throw new GradedEnd('WARN', message);
};
/** Not run because of the target (no token, no id it issued, a rule it depends on undecided): no verdict there. */
export const skip = (reason: string): never => {
  throw new GradedEnd('SKIP', reason);
};
/**
 * Not run because the user chose so: the profile leaves out an optional input (a client, an id's source, Observability
 * endpoints) or keeps harness off an endpoint (side_effects). Such a SKIP does not keep a run from passing.
 */
export const skipByChoice = (reason: string): never => {
  throw new GradedEnd('SKIP', reason, true);
};
export const inconclusive = (message: string, shown?: Shown): never => {
  throw new GradedEnd('INCONCLUSIVE', message, false, shown);
};
export const info = (message: string): never => {
  throw new GradedEnd('INFO', message);
};
