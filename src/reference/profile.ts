// The harness profile describing a running reference server.
import {
  BUCKETS,
  type BucketId,
  ENDPOINTS,
  type EndpointKey,
  type Profile,
  TOKEN_LIFETIME_SECONDS,
} from '../spec/index.ts';
import type { ReferenceClient, ResolvedReferenceOptions } from './options.ts';

type RequestExample = NonNullable<Profile['requests']>[string];

const keyOf = (bucket: BucketId): EndpointKey => ENDPOINTS.find((e) => e.bucket === bucket)!.key;

// Shapes from public examples of such services; the reference server reads none of them.
const EXAMPLES: Partial<Record<BucketId, RequestExample>> = {
  'transaction-event': {
    body: {
      request_uuid: '2f1c7a52-8a8e-4d43-9a53-0c9d0f3b6e11',
      payment_external_id: 'pay-0001',
      transaction_external_id: 'txn-0001',
      modification: {
        external_id: 'mod-0001',
        type: 'AUTHORIZATION',
        amount: 1250,
        currency: 'EUR',
        created_at: '2026-01-01T12:00:00Z',
      },
      sender: { external_id: 'customer-0001' },
      receiver: { external_id: 'merchant-0001' },
    },
  },
  'rules-rerun': { body: { rule_ids: ['BR1'], date: '2026-01-01' } },
  'rules-schedule': { query: { date: '2026-01-01' } },
  'batch-upload-url': { body: { reject_on_invalid: true } },
  'rules-execute': { body: { execution_date: '2026-01-01', rule_ids: ['BR1'] } },
};

const credentials = (client: ReferenceClient) => ({
  client_id: client.client_id,
  client_secret: client.client_secret,
});

const SPEC_MINUTE_MS = 60_000;

export const buildProfile = (
  options: ResolvedReferenceOptions,
  baseUrl: string,
  authUrl: string,
): Profile => {
  const { primary, same_tenant, restricted, other_tenant } = options.clients;
  const requests: Record<string, RequestExample> = {};
  for (const [bucket, example] of Object.entries(EXAMPLES)) requests[keyOf(bucket as BucketId)] = example;
  const profile: Profile = {
    base_url: baseUrl,
    auth_url: authUrl,
    tenant: options.tenant,
    clients: {
      primary: credentials(primary),
      same_tenant: credentials(same_tenant),
      restricted: { ...credentials(restricted), lacks: [...(restricted.lacks ?? [])] },
      other_tenant: { ...credentials(other_tenant), tenant: other_tenant.tenant },
    },
    observability: [...options.observability],
    requests: structuredClone(requests),
    ids: {
      batch_id: { from: keyOf('batch-upload-url'), pointer: '/batch_id' },
      execution_id: { from: keyOf('rules-execute'), pointer: '/execution_id' },
    },
    // Its tenants exist for this server's run alone: nothing but harness sends them traffic.
    exclusive_tenant: true,
  };
  const limits: NonNullable<Profile['limits']> = {};
  for (const bucket of Object.values(BUCKETS)) {
    const limit = options.limits[bucket.id];
    if (limit.count !== bucket.limit.count || limit.per !== bucket.limit.per)
      limits[bucket.id] = { ...limit };
  }
  if (Object.keys(limits).length > 0) profile.limits = limits;
  if (options.tokenLifetimeSeconds !== TOKEN_LIFETIME_SECONDS)
    profile.token_lifetime = options.tokenLifetimeSeconds;
  if (options.minuteMs !== SPEC_MINUTE_MS) profile.minute_ms = options.minuteMs;
  return profile;
};
