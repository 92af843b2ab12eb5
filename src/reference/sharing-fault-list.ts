// The faults that break SPEC.md §8 rule 1 on one bucket or a few, where limit-fault-list.ts's break it on every
// bucket: each sharing property is checked on every bucket it applies to, and a fault on one bucket shows that the
// check of that bucket looks at its own bucket, not at a neighbour's.
import { ENDPOINTS } from '../spec/index.ts';
import type { FaultEntry } from './behaviour.ts';

/** The buckets of the POST endpoints: the ones a client's own traffic (events, reruns, uploads) goes to. */
const POST_BUCKETS: ReadonlySet<string> = new Set(
  ENDPOINTS.filter((e) => e.method === 'POST').map((e) => e.bucket),
);

export const SHARING_FAULTS = [
  {
    name: 'observability-shared-across-tenants',
    clause: '§8 rule 1',
    rule: "the Observability limit is one for every tenant, so one tenant uses up every other tenant's; every other bucket is per tenant",
    breaks: {
      ownerOf: (client, bucket) => (bucket === 'observability' ? '' : `tenant:${client.tenant}`),
    },
  },
  {
    name: 'post-limits-per-client',
    clause: '§8 rule 1',
    rule: 'the four POST buckets are kept per client instead of per tenant, so two applications of one tenant get twice their limit there',
    breaks: {
      ownerOf: (client, bucket) =>
        POST_BUCKETS.has(bucket) ? `client:${client.client_id}` : `tenant:${client.tenant}`,
    },
  },
  {
    name: 'rules-status-per-execution-id',
    clause: '§8 rule 1',
    rule: 'GET /api/rules/status/{execution_id} keeps one limit per execution id instead of one for the endpoint',
    breaks: { limitPerPathId: 'rules-status' },
  },
] as const satisfies readonly FaultEntry[];
