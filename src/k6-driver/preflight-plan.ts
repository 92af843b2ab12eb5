// What harness sends before k6 starts (src/k6-driver/preflight.ts does it): a token per client role, the path ids the
// probed endpoints need, and at least one API call, timed so k6's VUs can be sized from a measured round trip.
// Every one of these requests spends a limit, so the plan names them and the verdicts count them (verdict.ts).
import type { PhasePlan, PreflightPlan } from '../../core/plan.ts';
import { InputError } from '../errors.ts';
import type { Target } from '../profile/target.ts';
import type { EndpointKey, PathId } from '../spec/index.ts';

/** One API call in a bucket whose first phase offers at most 90 % of its limit keeps the phase within it. */
const MIN_COUNT_FOR_TIMED_CALL = 10;
/** Round trips to time; the first request of all also opens the connection, so it is not one of them. */
const TIMINGS = 3;

export const planPreflight = (target: Target, phases: readonly PhasePlan[]): PreflightPlan => {
  const roles = [...new Set(phases.flatMap((p) => p.clients))];
  const names = [
    ...new Set(
      phases.flatMap((p) => p.endpoints.flatMap((key) => [...key.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!))),
    ),
  ];
  const fixedIds: Record<string, string> = {};
  const idSources: { name: string; from: string; pointer: string }[] = [];
  for (const name of names) {
    const source = target.profile.ids?.[name as PathId];
    if (source?.value !== undefined) fixedIds[name] = source.value;
    else if (source?.from !== undefined) {
      // availableProbes leaves out what needs such an id; a plan built otherwise must still not send it.
      if (!target.reachable(target.endpoint(source.from as EndpointKey)))
        throw new InputError(`ids.${name}.from: side_effects does not let harness call ${source.from}`);
      idSources.push({ name, from: source.from, pointer: source.pointer ?? '' });
    } else throw new InputError(`ids.${name}: the profile does not say where ${name} comes from`);
  }
  const biggest = [...phases].sort(
    (a, b) => a.limit.windowMs - b.limit.windowMs || b.limit.count - a.limit.count,
  )[0];
  const timedCall =
    idSources.length === 0 && biggest !== undefined && biggest.limit.count >= MIN_COUNT_FOR_TIMED_CALL
      ? biggest.endpoints[0]
      : undefined;
  const requestsPerLimiter: Record<string, number> = {};
  for (const key of [...idSources.map((s) => s.from), ...(timedCall ? [timedCall] : [])]) {
    const limiterKey = `${target.endpoint(key as EndpointKey).bucket}/${target.profile.tenant}`;
    requestsPerLimiter[limiterKey] = (requestsPerLimiter[limiterKey] ?? 0) + 1;
  }
  const apiCalls = idSources.length + (timedCall ? 1 : 0);
  const extra = Math.max(0, TIMINGS + 1 - roles.length - apiCalls);
  const tokenRequests = [...roles, ...Array.from({ length: extra }, () => 'primary')];
  return { tokenRequests, idSources, fixedIds, timedCall, requestsPerLimiter };
};
