// The options of `harness load` as commander gives them, and what the command returns: a module of their own, since
// both the run (load.ts) and the manifests it may write instead (load-k8s.ts) take them.
import type { FaultName } from '../reference/index.ts';
import type { BucketId, Limit } from '../spec/index.ts';
import type { NetworkFlags } from './network.ts';

export interface K8sOptions {
  k8s?: string;
  image?: string;
  startIn?: number;
}

export interface LoadOptions extends NetworkFlags, K8sOptions {
  profile?: string;
  scenario: string[];
  rate?: number;
  duration?: number;
  instances: number;
  reportDir: string;
  list?: boolean;
  strict?: boolean;
  fault?: FaultName;
  limit: Partial<Record<BucketId, Limit>>;
}

export interface LoadCommandResult {
  readonly exitCode: number;
  /** The run's report directory and files; none when nothing ran (`--list`). */
  readonly dir?: string;
  readonly files: readonly string[];
  /** The reports could not all be written (exit 6): certify archives none of them. */
  readonly reportsNotWritten?: true;
}
