// The one planner of which selected checks run and which SKIP before the run for what the profile leaves out: a
// client, the Observability endpoints, a path id, an endpoint side_effects forbids. --dry-run lists its decisions and
// the run (runner.ts) acts on them, so a staging user's list of what will be sent is the run's own. The reasons are
// worded as the run words the same SKIP when it meets it mid-check (session.ts, bucket-probe.ts).

import type { Target } from '../profile/target.ts';
import { BUCKETS, type BucketId, type EndpointKey, type EndpointSpec } from '../spec/index.ts';
import { plannedFor, type Selected } from './plan.ts';
import type { CheckDefinition } from './types.ts';

/**
 * Why `endpoint` cannot be called with what the profile gives: side_effects, or a path id with no usable source.
 * `taking`: the ids already being traced on the way here, so an id that needs itself ends the trace (as in target.ts).
 */
const whyUnreachable = (
  endpoint: EndpointSpec,
  target: Target,
  taking: ReadonlySet<string> = new Set(),
): string | undefined => {
  if (!target.mayCall(endpoint)) return `side_effects forbids calling ${endpoint.key}`;
  for (const name of endpoint.pathIds) {
    const source = target.profile.ids?.[name];
    if (source?.value !== undefined) continue;
    if (source?.from === undefined) return `the profile does not say where ${name} comes from (ids.${name})`;
    if (taking.has(name)) return `${name} comes from an endpoint that needs ${name} itself`;
    const from = target.endpoint(source.from as EndpointKey);
    if (!target.mayCall(from)) return `${name} comes from ${from.key}, which side_effects forbids calling`;
    const further = whyUnreachable(from, target, new Set([...taking, name]));
    if (further !== undefined) return further;
  }
  return undefined;
};

const isBucket = (lane: string): lane is BucketId => Object.hasOwn(BUCKETS, lane);

/** Why the profile keeps `check` from running; undefined when it runs. */
const whyProfileSkips = (check: CheckDefinition, target: Target): string | undefined => {
  const unmet = check.unmetBy?.(target);
  if (unmet !== undefined) return unmet;
  // A check in a bucket's lane measures that bucket; only the Observability bucket can be empty (its paths come from
  // the profile).
  if (isBucket(check.lane) && target.endpointsIn(check.lane).length === 0) {
    return `no ${check.lane} endpoints in the profile`;
  }
  const wanted = check.plan(target);
  if (wanted.length === 0 || plannedFor(check, target).length > 0) return undefined;
  return whyUnreachable(target.endpoint(wanted[0]!.endpoint as EndpointKey), target);
};

/** The selection with every check the profile keeps from running excluded, saying why; idempotent. */
export const planChecks = (selection: readonly Selected[], target: Target): Selected[] =>
  selection.map((selected) => {
    if (selected.excluded !== undefined) return selected;
    const why = whyProfileSkips(selected.check, target);
    return why === undefined ? selected : { ...selected, excluded: why };
  });
