// What the rehearsal saw, in the form of test/fixtures/k6-operator/runner-jobs.json (the reference data the k8s
// rehearsal test derives from the operator's source), and how it differs from that file.

import type { ObservedJob } from './node.ts';
import type { ControlPlaneBinaries } from './tools.ts';
import { K6_OPERATOR } from './tools.ts';

export interface ClusterConfig {
  readonly binaries: ControlPlaneBinaries;
  /** CRDs, applied first and waited on until established. */
  readonly crds: readonly string[];
  readonly manifests: readonly string[];
  /** Where cluster.ts writes the jobs it saw. */
  readonly out: string;
  readonly timeoutMs: number;
}

export interface JobLine {
  readonly name: string;
  readonly command: readonly string[];
  readonly env: readonly unknown[];
}

export interface OperatorJobs {
  readonly operator: { readonly module: string; readonly commit: string; readonly version: string };
  readonly runners: readonly JobLine[];
  readonly initializer?: JobLine;
  readonly starter?: JobLine;
}

const lineOf = (job: ObservedJob): JobLine => {
  const container = job.spec.template.spec.containers[0];
  return { name: job.name, command: container?.command ?? [], env: container?.env ?? [] };
};

export const operatorJobs = (jobs: readonly ObservedJob[]): OperatorJobs => {
  const one = (role: ObservedJob['role']) => {
    const job = jobs.find((candidate) => candidate.role === role);
    return job === undefined ? undefined : lineOf(job);
  };
  return {
    operator: K6_OPERATOR,
    runners: jobs
      .filter((job) => job.role === 'runner')
      .map(lineOf)
      .sort((a, b) => a.name.localeCompare(b.name, 'en', { numeric: true })),
    initializer: one('initializer'),
    starter: one('starter'),
  };
};

/** Every place where `observed` and `reference` differ, as `path: observed <> reference` lines. */
export const differences = (observed: unknown, reference: unknown, path = '$'): string[] => {
  if (Object.is(observed, reference)) return [];
  const bothObjects =
    typeof observed === 'object' && observed !== null && typeof reference === 'object' && reference !== null;
  if (!bothObjects || Array.isArray(observed) !== Array.isArray(reference)) {
    return [`${path}: observed ${JSON.stringify(observed)} <> reference ${JSON.stringify(reference)}`];
  }
  const keys = new Set([...Object.keys(observed), ...Object.keys(reference)]);
  return [...keys].flatMap((key) =>
    differences(
      (observed as Record<string, unknown>)[key],
      (reference as Record<string, unknown>)[key],
      Array.isArray(observed) ? `${path}[${key}]` : `${path}.${key}`,
    ),
  );
};
