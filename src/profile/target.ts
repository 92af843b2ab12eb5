// What a run tests against: the profile resolved against SPEC.md (effective limits, endpoints, policies), so
// checks never reinterpret the profile themselves.
import {
  BUCKETS,
  type BucketId,
  ENDPOINTS,
  type EndpointKey,
  type EndpointSpec,
  type Limit,
  observabilityEndpoint,
  type Profile,
  TOKEN_LIFETIME_SECONDS,
} from '../spec/index.ts';

export interface BucketLimit extends Limit {
  readonly bucket: BucketId;
  readonly windowMs: number;
}

export interface Target {
  readonly profile: Profile;
  readonly endpoints: readonly EndpointSpec[];
  readonly tokenLifetimeSeconds: number;
  readonly minuteMs: number;
  /** Why the run cannot certify the target, one line each. */
  readonly notCertifiable: readonly string[];
  limitOf(bucket: BucketId): BucketLimit;
  endpoint(key: EndpointKey): EndpointSpec;
  endpointsIn(bucket: BucketId): readonly EndpointSpec[];
  /** Whether the profile lets harness call this endpoint (`side_effects`). */
  mayCall(endpoint: EndpointSpec): boolean;
  /** Whether a run sends it anything: it may be called, and so may whatever its path ids come from. */
  reachable(endpoint: EndpointSpec): boolean;
}

const SPEC_MINUTE_MS = 60_000;

export const resolveTarget = (profile: Profile): Target => {
  const endpoints = [
    ...ENDPOINTS,
    ...(profile.observability ?? []).map((key) => observabilityEndpoint(key as EndpointKey)),
  ];
  const minuteMs = profile.minute_ms ?? SPEC_MINUTE_MS;
  const tokenLifetimeSeconds = profile.token_lifetime ?? TOKEN_LIFETIME_SECONDS;
  const overrides = profile.limits ?? {};

  const endpointsIn = (bucket: BucketId) => endpoints.filter((e) => e.bucket === bucket);
  const limits = new Map<BucketId, BucketLimit>();
  for (const bucket of Object.values(BUCKETS)) {
    // An override may name the bucket (which wins) or any endpoint drawing from it, the profile's Observability
    // endpoints included, taken in SPEC.md's order.
    const override =
      overrides[bucket.id] ??
      endpointsIn(bucket.id)
        .map((e) => overrides[e.key])
        .find((limit) => limit !== undefined);
    const limit: Limit = override ?? bucket.limit;
    limits.set(bucket.id, {
      ...limit,
      bucket: bucket.id,
      windowMs: limit.per === 'second' ? 1000 : minuteMs,
    });
  }

  const notCertifiable = [
    ...Object.keys(overrides).map((key) => `profile overrides the SPEC.md §8 limit of ${key}`),
    ...(profile.minute_ms === undefined ? [] : [`profile shortens per-minute windows to ${minuteMs} ms`]),
    ...(profile.token_lifetime === undefined
      ? []
      : [`profile sets the token lifetime to ${tokenLifetimeSeconds} s`]),
    ...(profile.tls?.insecure ? ['TLS certificates were not verified (--insecure / tls.insecure)'] : []),
  ];

  const policy = profile.side_effects ?? 'allow';
  const mayCall = (endpoint: EndpointSpec): boolean => {
    if (!endpoint.sideEffects || policy === 'allow') return true;
    return Array.isArray(policy) && policy.includes(endpoint.key);
  };

  const find = (key: string): EndpointSpec => {
    const found = endpoints.find((e) => e.key === key);
    if (!found) throw new Error(`no endpoint ${key} in this target`);
    return found;
  };
  // `taking`: the ids already being fetched on the way here. A profile is checked for loops when it is read
  // (src/profile/references.ts); one built otherwise still ends: an id that needs itself is never had.
  const reachableTaking = (endpoint: EndpointSpec, taking: ReadonlySet<string>): boolean =>
    mayCall(endpoint) &&
    endpoint.pathIds.every((name) => {
      const source = profile.ids?.[name];
      if (source?.value !== undefined) return true;
      if (source?.from === undefined || taking.has(name)) return false;
      return reachableTaking(find(source.from), new Set([...taking, name]));
    });
  const reachable = (endpoint: EndpointSpec): boolean => reachableTaking(endpoint, new Set());

  return {
    profile,
    endpoints,
    tokenLifetimeSeconds,
    minuteMs,
    notCertifiable,
    limitOf: (bucket) => limits.get(bucket)!,
    endpoint: find,
    endpointsIn,
    mayCall,
    reachable,
  };
};
