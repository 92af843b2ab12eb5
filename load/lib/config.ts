// What one k6 run is given, decoded from the environment the harness CLI sets (core/load-env.ts names and types
// every variable). The defaults are for a run outside the CLI (load/k8s/README.md), which has no pre-flight.
import exec from 'k6/execution';
import { decodeLoadEnv, type LoadSettings, loadEnvName } from '../../core/load-env.ts';
import { unsealTarget } from '../../core/sealed-target.ts';
import { instanceOfSegment } from '../../core/token-turns.ts';
import type { K6Spec } from '../../core/wire.ts';

const setting = <K extends keyof LoadSettings>(key: K): LoadSettings[K] => decodeLoadEnv(__ENV, key);

export const spec = JSON.parse(open('./spec.generated.json')) as K6Spec;
/** The target as given: under the k6-operator its secret values are markers (core/sealed-target.ts). */
const givenTarget = setting('target');
let unsealed: typeof givenTarget | undefined;
/**
 * The target with its secret values, read where a VU sends a request: they come from the secrets' variable, which
 * the initializer pod is not given.
 */
export const target = (): typeof givenTarget => {
  unsealed ??= unsealTarget(givenTarget, setting('secrets'));
  return unsealed;
};
export const plan = setting('plan');
export const phases = plan.probes.flatMap((p) => p.phases);
export const instances = setting('instances') ?? 1;

/**
 * This instance's number among `instances`, from 0: the CLI says it; under the k6-operator, whose runners all get one
 * environment, it is read from the runner's execution segment, which k6 tells VUs but not init code.
 */
export const instanceIndex = (): number =>
  setting('instance') ??
  instanceOfSegment(exec.test.options.executionSegment, exec.test.options.executionSegmentSequence);

/** k6 has no run-wide request timeout: every request carries `--timeout`'s, else k6's 60 s applies. */
export const requestTimeoutMs = setting('requestTimeoutMs');
export const requestTimeoutParams =
  requestTimeoutMs === undefined ? {} : { timeout: `${requestTimeoutMs}ms` };

/** Without a pre-flight, VUs are sized for a far target's round trip. */
export const roundTripMs = setting('roundTripMs') ?? 250;

/** When the first phase starts (epoch ms), the same for every instance, so their slots line up. */
export const startAt = setting('startAt') ?? Date.now() + 1000;

/** Path ids the pre-flight found; without them setup() fetches its own. */
export const prefetchedIds = setting('ids');

/** What the summaries call the target. */
export const targetName = setting('targetName') ?? givenTarget.base_url;

/** Where handleSummary writes; k6's own text summary unless harness prints its verdicts itself. */
export const summaryOutputs = {
  json: setting('summaryJson'),
  html: setting('summaryHtml'),
  stdout: setting('summaryStdout') ?? 'text',
};

/** Who this runner is part of, as its summary records it (core/runners.ts checks a merge against it). */
export const runnerOf = {
  runId: setting('runId') ?? '',
  /** The plan exactly as this runner received it, whose digest every runner of one run shares. */
  planText: __ENV[loadEnvName('plan')] ?? '',
  harnessVersion: setting('version') ?? 'unknown',
  k6Version: setting('k6Version') ?? 'unknown',
  clockHost: setting('clockHost') ?? '',
};

/** Read when a VU needs a token, so the secrets live only in the VU's memory and never in options or setup data. */
export const secretOf = (role: string): string => {
  const secret = setting('secrets')[role];
  if (secret === undefined) throw new Error(`${loadEnvName('secrets')} has no secret for client ${role}`);
  return secret;
};

/** The client secrets' variable exactly as given (the sealing key derives from it); undefined at init, unset. */
export const secretsAsGiven = (): string | undefined => __ENV[loadEnvName('secrets')] || undefined;

/** Whether the pre-flight handed over tokens (then no runner's setup() fetches any). */
export const prefetchedTokens = setting('tokens') !== undefined;

/** Tokens the pre-flight fetched, by role, with the epoch ms to renew them at; absent outside the CLI. */
export const prefetchedToken = (role: string) => setting('tokens')?.[role];

export const phaseIndex = (name: string): number => {
  const index = phases.findIndex((p) => p.name === name);
  if (index < 0) throw new Error(`no phase ${name} in the plan`);
  return index;
};
