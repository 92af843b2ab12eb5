// What a run will send and how long it may take: the deduplicated plan (--dry-run prints it, --max-requests sets it
// aside check by check) and the default deadline.
import { renewAtFor } from '../../core/wire.ts';
import type { Target } from '../profile/target.ts';
import { BUCKETS, type BucketId, type EndpointKey, TOKEN_LIFETIME_SECONDS } from '../spec/index.ts';
import { TOKEN_ENDPOINT_KEY } from './counting-client.ts';
import type { CheckDefinition, PlanItem } from './types.ts';

export interface Selected {
  readonly check: CheckDefinition;
  /**
   * Why the check does not run (the flag that left it out, needs --slow, or what the profile leaves out: see
   * plan-skips.ts); undefined when it runs.
   */
  readonly excluded?: string;
  /** Left out by --only or --skip: no output lists it (a needs-slow SKIP is listed, saying how to run it). */
  readonly deselected?: boolean;
}

const longestWindowMs = (target: Target): number =>
  Math.max(...Object.keys(BUCKETS).map((b) => target.limitOf(b as BucketId).windowMs));

/**
 * About how long the probes take, with room to spare: the per-second buckets alone, then the rest side by side,
 * each about a window (spend, edge, the fresh burst a window after the spend) and a repeat of the fresh burst.
 */
const probesMs = (target: Target): number => 5 * (1000 + longestWindowMs(target));

/**
 * About how long a run takes: the probes, and beside them the expiry check (when it runs), which waits out a token
 * lifetime and then a window for its calls to find room once the probes are done.
 */
const estimatedRunMs = (target: Target, expiry = true): number =>
  Math.max(probesMs(target), expiry ? target.tokenLifetimeSeconds * 1000 + longestWindowMs(target) : 0);

/** About how long the checks that run take (what the live progress counts down from). */
export const expectedRunMs = (target: Target, running: readonly CheckDefinition[]): number =>
  estimatedRunMs(
    target,
    running.some((c) => c.slow),
  );

/** The HttpClient's defaults, which the deadline allows for when the run sets no timeout of its own. */
const DEFAULT_CONNECT_AND_REQUEST_MS = 5_000 + 15_000;

/**
 * The default overall deadline, from before the reachability check to the reports: twice the estimate of the checks
 * that run (the token lifetime only when the expiry check waits it out), plus five requests' worth of connect and
 * request timeouts, for a slow target: four for the checks, and one for the reachability check.
 */
export const runDeadlineMs = (
  target: Target,
  running: readonly CheckDefinition[],
  requestTimeoutMs?: number,
): number => {
  const perRequest =
    requestTimeoutMs === undefined ? DEFAULT_CONNECT_AND_REQUEST_MS : 5_000 + requestTimeoutMs;
  return 2 * expectedRunMs(target, running) + 5 * perRequest;
};

/** The token manager's requests, which no one check plans: the run sets them aside. */
export const TOKENS_ITEM = 'tokens';

/** Deduplicated: checks that share a probe plan it once. */
export const planOf = (selection: readonly Selected[], target: Target): PlanItem[] => {
  const clients = Object.keys(target.profile.clients).length;
  // The token manager's requests: a token per client for each stretch it is renewed after, and one refresh each
  // should a token be refused.
  const renewEvery = Math.max(1, renewAtFor(0, target.tokenLifetimeSeconds, TOKEN_LIFETIME_SECONDS) / 1000);
  const tokens = clients * Math.ceil(estimatedRunMs(target) / 1000 / renewEvery + 1);
  const items = new Map<string, PlanItem>([
    [TOKENS_ITEM, { key: TOKENS_ITEM, endpoint: TOKEN_ENDPOINT_KEY, requests: tokens, margin: clients }],
  ]);
  for (const { check } of selection.filter((s) => s.excluded === undefined)) {
    for (const item of plannedFor(check, target)) items.set(item.key, item);
  }
  return [...items.values()];
};

/** What a check plans to send, less what side_effects keeps harness from sending (that part of it SKIPs). */
export const plannedFor = (check: CheckDefinition, target: Target): PlanItem[] =>
  check
    .plan(target)
    .filter(
      (item) =>
        item.endpoint === TOKEN_ENDPOINT_KEY ||
        target.reachable(target.endpoint(item.endpoint as EndpointKey)),
    );
