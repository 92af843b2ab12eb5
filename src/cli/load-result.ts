// What `harness load` returns, to its own exit and to certify: a module of its own, since both the run (load.ts) and
// the manifests it may write instead (load-k8s.ts) return it.
import type { GradedPhase } from '../report/junit.ts';
import type { ExitCode } from './exit-codes.ts';

export interface LoadCommandResult {
  readonly exitCode: ExitCode;
  /** The run's report directory and files; none when nothing ran (`--list`). */
  readonly dir?: string;
  readonly files: readonly string[];
  /** Every phase as the run judged it, failures first (as its reports show them); none when no phase ran. */
  readonly phases?: readonly GradedPhase[];
  /** The reports could not all be written (exit 6): certify archives none of them. */
  readonly reportsNotWritten?: true;
}
