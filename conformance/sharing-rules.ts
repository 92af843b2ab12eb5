// SPEC.md §8 rule 1: who shares a limit. Each rule is a request a bucket's probe sends once the bucket is spent
// (see src/runner/probe.ts, Variant), and what its answer must be.
import type { Target, Variant } from '../src/runner/checks.ts';
import type { BucketId, ClientRole } from '../src/spec/index.ts';

export interface SharingRule {
  readonly id: string;
  readonly title: string;
  readonly bucket: BucketId;
  readonly variant: string;
  /** The client the variant needs from the profile, if any. */
  readonly client?: ClientRole;
  /** Whether the variant must be refused (shares the spent bucket) or admitted (does not). */
  readonly shares: boolean;
}

export const SHARING_RULES: readonly SharingRule[] = [
  {
    id: 'LIMIT-PATH-ID-SHARED',
    title: 'Batch status calls with different batch ids draw from one limit',
    bucket: 'batch-status',
    variant: 'another batch_id',
    shares: true,
  },
  {
    id: 'LIMIT-TENANT-SHARED',
    title: 'Two applications of one tenant share a limit',
    bucket: 'rules-schedule',
    variant: 'another application of the same tenant',
    client: 'same_tenant',
    shares: true,
  },
  {
    id: 'LIMIT-TENANT-ISOLATED',
    title: "Another tenant is not limited by this tenant's traffic",
    bucket: 'rules-schedule',
    variant: 'a client of another tenant',
    client: 'other_tenant',
    shares: false,
  },
];

/** The variants a bucket's probe sends; each says which bucket it would draw from were it not shared. */
export const probeVariants = (target: Target, bucket: BucketId): Variant[] =>
  SHARING_RULES.filter(
    (rule) => rule.bucket === bucket && (rule.client === undefined || target.profile.clients[rule.client]),
  ).map((rule) => ({
    name: rule.variant,
    endpoint: target.endpointsIn(bucket)[0]!,
    shares: rule.shares,
    options: async (ctx) =>
      rule.client === undefined
        ? { ids: { batch_id: await ctx.otherPathId('batch_id') } }
        : { client: rule.client },
    own: (options, ctx) => {
      const client = options.client === undefined ? undefined : ctx.client(options.client);
      const tenant = client?.tenant ?? target.profile.tenant;
      const batchId = options.ids?.batch_id;
      if (client !== undefined) return { tenant, only: (r) => r.clientId === client.client_id };
      return {
        tenant,
        only: (r) => batchId !== undefined && r.path.endsWith(`/${encodeURIComponent(batchId)}`),
      };
    },
  }));
