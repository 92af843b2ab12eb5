// The runs compare and trend read, as types: apart from run-docs.ts, which reads them, so that what checks a report
// (forgery.ts) and what reads it need not import each other.
import type { LoadSummary } from '../../core/evidence.ts';
import type { Grade } from '../../core/grade.ts';
import type { RunReport } from '../runner/types.ts';

/** A load phase as a report states it: its grade and the limit it read. */
export interface PhaseGrade {
  readonly phase: string;
  readonly grade: Grade;
  readonly message: string;
  readonly enforcedPerWindow?: number;
}

/** A load summary as `harness load` writes it: the summary, who wrote it, and each phase's grade. */
export interface LoadReport extends LoadSummary {
  readonly harness?: { readonly name: 'harness'; readonly version: string };
  readonly specDigest?: string;
  readonly grades?: readonly PhaseGrade[];
}

/** One run as read: its conformance report and its load summaries (a folder may hold both). */
export interface RunDocs {
  /** The path given, for messages. */
  readonly source: string;
  readonly conformance?: RunReport;
  readonly load: readonly { readonly file: string; readonly report: LoadReport }[];
}
