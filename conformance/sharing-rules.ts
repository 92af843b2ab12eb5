// SPEC.md §8 rule 1: who shares a limit, on every bucket each property applies to. Each rule is a request a bucket's
// probe sends once the bucket is spent (see src/runner/probe/probe.ts, Variant), and what its answer must be.
import type { Target, Variant } from '../src/runner/checks.ts';
import { BUCKETS, type BucketId, type ClientRole, ENDPOINTS, type PathId } from '../src/spec/index.ts';

/** A property of §8 rule 1, checked on each bucket it applies to. */
interface SharingProperty {
  /** The ID of its check, suffixed with the bucket (as LIMIT-ENFORCED-<BUCKET>) except on `firstOn`. */
  readonly id: string;
  /** The bucket the property was checked on alone before: its check keeps the unsuffixed ID baselines name. */
  readonly firstOn: BucketId;
  /** Selects the property on every bucket (--only). */
  readonly tag: string;
  readonly title: (bucket: BucketId) => string;
  /** The client the variant is sent as, and its name; without one it asks for a second id of the bucket's path. */
  readonly client?: { readonly role: ClientRole; readonly variant: string };
  /** Whether the variant must be refused (shares the spent bucket) or admitted (does not). */
  readonly shares: boolean;
}

export interface SharingRule {
  readonly id: string;
  readonly title: string;
  readonly tag: string;
  readonly bucket: BucketId;
  readonly variant: string;
  readonly client?: ClientRole;
  /** The path id another value of which the variant asks for (the endpoint's own limit is one for every id). */
  readonly pathId?: PathId;
  readonly shares: boolean;
}

const PROPERTIES: readonly SharingProperty[] = [
  {
    id: 'LIMIT-PATH-ID-SHARED',
    firstOn: 'batch-status',
    tag: 'path-id-sharing',
    title: (bucket) => `Calls to ${bucket} with different path ids draw from one limit`,
    shares: true,
  },
  {
    id: 'LIMIT-TENANT-SHARED',
    firstOn: 'rules-schedule',
    tag: 'tenant-sharing',
    title: (bucket) => `Two applications of one tenant share the ${bucket} limit`,
    client: { role: 'same_tenant', variant: 'another application of the same tenant' },
    shares: true,
  },
  {
    id: 'LIMIT-TENANT-ISOLATED',
    firstOn: 'rules-schedule',
    tag: 'tenant-isolation',
    title: (bucket) => `Another tenant is not limited by this tenant's ${bucket} traffic`,
    client: { role: 'other_tenant', variant: 'a client of another tenant' },
    shares: false,
  },
];

/** The path id of the bucket's endpoint, if it takes one (each templated endpoint of §8's table is a bucket). */
const pathIdOf = (bucket: BucketId): PathId | undefined =>
  ENDPOINTS.find((e) => e.bucket === bucket)?.pathIds[0];

/** Every property on every bucket of the §8 table it applies to: path-id sharing only where the path takes an id. */
export const SHARING_RULES: readonly SharingRule[] = PROPERTIES.flatMap((property) =>
  (Object.keys(BUCKETS) as BucketId[]).flatMap((bucket): SharingRule[] => {
    const id = bucket === property.firstOn ? property.id : `${property.id}-${bucket.toUpperCase()}`;
    const common = { id, title: property.title(bucket), tag: property.tag, bucket, shares: property.shares };
    if (property.client !== undefined)
      return [{ ...common, variant: property.client.variant, client: property.client.role }];
    const pathId = pathIdOf(bucket);
    return pathId === undefined ? [] : [{ ...common, variant: `another ${pathId}`, pathId }];
  }),
);

/**
 * What the profile lacks for the rule's variant, worded as "not verified": its client, or a source of a second id
 * (a fixed value is one id). Undefined when it has it; the planner SKIPs the check for this reason.
 */
export const sharingUnmetBy = (rule: SharingRule, target: Target): string | undefined => {
  if (rule.client !== undefined) {
    return target.profile.clients[rule.client] === undefined
      ? `not verified: the profile has no clients.${rule.client}, the client this property is shown with`
      : undefined;
  }
  const source = target.profile.ids?.[rule.pathId!];
  if (source?.from !== undefined) return undefined;
  return source?.value === undefined
    ? `not verified: the profile does not say where ${rule.pathId} comes from (ids.${rule.pathId}), and sharing needs two of them`
    : `not verified: ids.${rule.pathId} is one fixed value, and sharing needs a second ${rule.pathId} the target issued (ids.${rule.pathId}.from)`;
};

/** The variants a bucket's probe sends; each says which bucket it would draw from were it not shared. */
export const probeVariants = (target: Target, bucket: BucketId): Variant[] =>
  SHARING_RULES.filter((rule) => rule.bucket === bucket && sharingUnmetBy(rule, target) === undefined).map(
    (rule) => ({
      name: rule.variant,
      endpoint: target.endpointsIn(bucket)[0]!,
      shares: rule.shares,
      options: async (ctx) =>
        rule.client === undefined
          ? { ids: { [rule.pathId!]: await ctx.otherPathId(rule.pathId!) } }
          : { client: rule.client },
      own: (options, ctx) => {
        const client = options.client === undefined ? undefined : ctx.client(options.client);
        const tenant = client?.tenant ?? target.profile.tenant;
        if (client !== undefined) return { tenant, only: (r) => r.clientId === client.client_id };
        const id = options.ids?.[rule.pathId!];
        return { tenant, only: (r) => id !== undefined && r.path.endsWith(`/${encodeURIComponent(id)}`) };
      },
    }),
  );
