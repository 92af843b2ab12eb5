// What the rehearsal saw, in the form of test/fixtures/k6-operator/runner-jobs.json (the reference data the k8s
// rehearsal test derives from the operator's source), and how it differs from that file.

import type { ObservedJob } from './node.ts';
import type { ControlPlaneBinaries } from './tools.ts';
import { K6_OPERATOR } from './tools.ts';

export interface ClusterConfig {
  readonly binaries: ControlPlaneBinaries;
  /** The k6 the initializer runs (tools/k6). */
  readonly k6: string;
  /** CRDs, applied first and waited on until established. */
  readonly crds: readonly string[];
  readonly manifests: readonly string[];
  /** Where cluster.ts writes the jobs it saw. */
  readonly out: string;
  readonly timeoutMs: number;
  /** The caller's mount and network namespaces (/proc/self/ns/*), which the cluster must not share. */
  readonly callerNamespaces: Readonly<Record<string, string>>;
}

export interface JobLine {
  readonly name: string;
  readonly command: readonly string[];
  /** The names of the container's env, as the reference data lists them: values come from the TestRun. */
  readonly env: readonly string[];
}

export interface OperatorJobs {
  readonly operator: { readonly module: string; readonly commit: string; readonly version: string };
  readonly runners: readonly JobLine[];
  readonly initializer?: JobLine;
  readonly starter?: JobLine;
}

/**
 * The Jobs as the reference data writes them. Service IPs differ from run to run, so each is written as the
 * reference does: `<ClusterIP of SERVICE>`.
 */
export const operatorJobs = (
  jobs: readonly ObservedJob[],
  serviceIps: ReadonlyMap<string, string>,
): OperatorJobs => {
  const named = (part: string) =>
    [...serviceIps].reduce(
      (text, [ip, service]) => text.replaceAll(`${ip}:`, `<ClusterIP of ${service}>:`),
      part,
    );
  const lineOf = (job: ObservedJob): JobLine => {
    const container = job.spec.template.spec.containers[0];
    return {
      name: job.name,
      command: (container?.command ?? []).map(named),
      env: (container?.env ?? []).map((variable) => (variable as { name: string }).name),
    };
  };
  const one = (role: ObservedJob['role']) => {
    const job = jobs.find((candidate) => candidate.role === role);
    return job === undefined ? undefined : lineOf(job);
  };
  // The starter resumes the runners in the order the API lists their Services, which changes from run to run (7
  // runs: 2 in 1..4 order); setup() waits for the common start whatever the order, so runs compare in number order.
  const starter = one('starter');
  return {
    operator: K6_OPERATOR,
    runners: jobs
      .filter((job) => job.role === 'runner')
      .map(lineOf)
      .sort((a, b) => a.name.localeCompare(b.name, 'en', { numeric: true })),
    initializer: one('initializer'),
    starter: starter && {
      ...starter,
      command: starter.command.map((part) =>
        part
          .split(';')
          .sort((a, b) => a.localeCompare(b, 'en', { numeric: true }))
          .join(';'),
      ),
    },
  };
};

/**
 * Every place where `observed` and `reference` differ, as `path: observed <> reference` lines. Only what the
 * rehearsal observes is compared: an object's keys that only the reference has (its notes on where each value comes
 * from) are not differences, but array items are compared one for one.
 */
export const differences = (observed: unknown, reference: unknown, path = '$'): string[] => {
  if (Object.is(observed, reference)) return [];
  const bothObjects =
    typeof observed === 'object' && observed !== null && typeof reference === 'object' && reference !== null;
  if (!bothObjects || Array.isArray(observed) !== Array.isArray(reference)) {
    return [`${path}: observed ${JSON.stringify(observed)} <> reference ${JSON.stringify(reference)}`];
  }
  const keys = Array.isArray(observed)
    ? new Set([...Object.keys(observed), ...Object.keys(reference)])
    : Object.keys(observed);
  return [...keys].flatMap((key) =>
    differences(
      (observed as Record<string, unknown>)[key],
      (reference as Record<string, unknown>)[key],
      Array.isArray(observed) ? `${path}[${key}]` : `${path}.${key}`,
    ),
  );
};
