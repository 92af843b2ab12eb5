// What one k6 run targets, from the environment the harness CLI sets (never the command line, where `ps` shows it):
// HARNESS_TARGET (where the endpoints are and what to send them), HARNESS_SECRETS (client secrets by role),
// HARNESS_PLAN (the resolved plan, src/k6/plan.ts); from the CLI's pre-flight also HARNESS_ROUND_TRIP_MS,
// HARNESS_START_AT, HARNESS_INSTANCE, HARNESS_IDS and HARNESS_TOKENS;
// with --timeout, HARNESS_TIMEOUT_MS; HARNESS_TARGET_NAME is how summaries name the target (secrets hidden).
import exec from 'k6/execution';
import type { K6Plan } from './plan.ts';
import { instanceOfSegment } from './token-turns.ts';
import type { K6Spec } from './wire.ts';

const env = (name: string): string => {
  const value = __ENV[name];
  if (value === undefined || value === '')
    throw new Error(`${name} is not set: run this script through \`harness load\``);
  return value;
};

/** The part of a harness profile the load scripts read (secrets travel separately). */
export interface LoadTarget {
  readonly base_url: string;
  readonly auth_url: string;
  readonly requests?: Readonly<
    Record<string, { body?: unknown; query?: Record<string, string>; headers?: Record<string, string> }>
  >;
}

export const spec = JSON.parse(open('./spec.generated.json')) as K6Spec;
export const target = JSON.parse(env('HARNESS_TARGET')) as LoadTarget;
export const plan = JSON.parse(env('HARNESS_PLAN')) as K6Plan;
export const phases = plan.probes.flatMap((p) => p.phases);
export const instances = Number(__ENV.HARNESS_INSTANCES ?? '1');

/** `--timeout` (`timeout_ms`): the longest one request may take, as for harness's own requests; else k6's 60 s. */
export const timeoutParam = __ENV.HARNESS_TIMEOUT_MS ? { timeout: `${__ENV.HARNESS_TIMEOUT_MS}ms` } : {};

/** Without a pre-flight (a run outside the CLI), VUs are sized for a far target's round trip. */
export const roundTripMs = Number(__ENV.HARNESS_ROUND_TRIP_MS ?? '250');

/** When the first phase starts (epoch ms), the same for every instance, so their slots line up. */
export const startAt = Number(__ENV.HARNESS_START_AT ?? Date.now() + 1000);

/**
 * This instance's number among `instances`, from 0: HARNESS_INSTANCE from the CLI; under the k6-operator, whose
 * runners all get one environment, read from the runner's execution segment, which k6 tells VUs but not init code.
 */
export const instanceIndex = (): number =>
  __ENV.HARNESS_INSTANCE !== undefined
    ? Number(__ENV.HARNESS_INSTANCE)
    : instanceOfSegment(exec.test.options.executionSegment, exec.test.options.executionSegmentSequence);

/** Read when a VU needs a token, so the secrets live only in the VU's memory and never in options or setup data. */
export const secretOf = (role: string): string => {
  const secret = (JSON.parse(env('HARNESS_SECRETS')) as Record<string, string>)[role];
  if (secret === undefined) throw new Error(`HARNESS_SECRETS has no secret for client ${role}`);
  return secret;
};

/** Tokens the pre-flight fetched, by role, with the epoch ms to renew them at; absent outside the CLI. */
export const prefetchedToken = (role: string): { token: string; renewAt: number } | undefined =>
  (JSON.parse(__ENV.HARNESS_TOKENS ?? '{}') as Record<string, { token: string; renewAt: number }>)[role];

export const phaseIndex = (name: string): number => {
  const index = phases.findIndex((p) => p.name === name);
  if (index < 0) throw new Error(`no phase ${name} in the plan`);
  return index;
};
