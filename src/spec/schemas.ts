// JSON Schemas are the single source: the TypeScript types below are derived from them (json-schema-to-ts), so the
// types ajv validates and the types the code uses cannot drift.
import type { FromSchema } from 'json-schema-to-ts';
import { TOKEN_LIFETIME_SECONDS, TOKEN_TYPE } from './auth.ts';

/** §2 "Access token response", as the spec states it (exact values; checks grade deviations themselves). */
export const tokenResponseSchema = {
  $id: 'https://harness.invalid/schemas/token-response.json',
  type: 'object',
  required: ['access_token', 'expires_in', 'token_type'],
  properties: {
    access_token: { type: 'string', minLength: 1 },
    expires_in: { type: 'integer', const: TOKEN_LIFETIME_SECONDS },
    token_type: { type: 'string', const: TOKEN_TYPE },
  },
} as const;

export const endpointKey = { type: 'string', pattern: '^(GET|POST) /\\S*$' } as const;
const nonEmpty = { type: 'string', minLength: 1 } as const;
export const httpUrl = { type: 'string', pattern: '^https?://[^\\s/]+(/\\S*)?$' } as const;

const client = {
  type: 'object',
  additionalProperties: false,
  required: ['client_id', 'client_secret'],
  properties: {
    client_id: nonEmpty,
    client_secret: nonEmpty,
    /** Tenant of this client when it differs from the profile's (the `other_tenant` client). */
    tenant: nonEmpty,
    /** Endpoints this client has no permission for (SPEC.md §5 rule 6). */
    lacks: { type: 'array', items: endpointKey },
  },
} as const;

const idSource = {
  type: 'object',
  additionalProperties: false,
  properties: {
    /** The endpoint whose response carries the id ... */
    from: endpointKey,
    /** ... at this JSON Pointer (RFC 6901). */
    pointer: { type: 'string', pattern: '^(/.*)?$' },
    /** Or a fixed, known id. */
    value: nonEmpty,
  },
  oneOf: [{ required: ['from', 'pointer'] }, { required: ['value'] }],
} as const;

const limitOverride = {
  type: 'object',
  additionalProperties: false,
  required: ['count', 'per'],
  properties: {
    count: { type: 'integer', minimum: 1 },
    per: { type: 'string', enum: ['second', 'minute'] },
  },
} as const;

export const profileSchema = {
  $id: 'https://harness.invalid/schemas/profile.json',
  type: 'object',
  additionalProperties: false,
  required: ['base_url', 'auth_url', 'tenant', 'clients'],
  properties: {
    base_url: httpUrl,
    auth_url: httpUrl,
    tenant: { type: 'string', pattern: '^[^/\\s]+$' },
    clients: {
      type: 'object',
      additionalProperties: false,
      required: ['primary'],
      properties: {
        primary: client,
        same_tenant: client,
        restricted: { ...client, required: ['client_id', 'client_secret', 'lacks'] },
        other_tenant: { ...client, required: ['client_id', 'client_secret', 'tenant'] },
      },
    },
    observability: { type: 'array', items: endpointKey, uniqueItems: true },
    requests: {
      type: 'object',
      propertyNames: endpointKey,
      additionalProperties: {
        type: 'object',
        additionalProperties: false,
        properties: {
          body: {},
          query: { type: 'object', additionalProperties: { type: 'string' } },
          headers: { type: 'object', additionalProperties: { type: 'string' } },
        },
      },
    },
    ids: {
      type: 'object',
      additionalProperties: false,
      properties: { batch_id: idSource, execution_id: idSource },
    },
    side_effects: {
      oneOf: [
        { type: 'string', enum: ['allow', 'deny'] },
        { type: 'array', items: endpointKey },
      ],
    },
    /** Overrides of SPEC.md §8, keyed by endpoint key or bucket id; a run with any is not certifiable. */
    limits: { type: 'object', additionalProperties: limitOverride },
    /** Override of the 3600 s token lifetime (for a test server); a run with it is not certifiable. */
    token_lifetime: { type: 'integer', minimum: 1 },
    /** How long a "minute" of per-minute limits lasts on a test server; a run with it is not certifiable. */
    minute_ms: { type: 'integer', minimum: 1000 },
    /** TLS towards the target, files relative to the profile: an extra trusted CA, a client certificate and key. */
    tls: {
      type: 'object',
      additionalProperties: false,
      properties: {
        ca: nonEmpty,
        cert: nonEmpty,
        key: nonEmpty,
        /** Skip certificate verification: a run with it is not certifiable. */
        insecure: { type: 'boolean' },
      },
      dependencies: { cert: ['key'], key: ['cert'] },
    },
    /**
     * No traffic but harness's uses the tenant during the run (a tenant kept for testing): a refusal below the limit
     * then has nothing to explain it but the limiter, and is a FAIL rather than INCONCLUSIVE.
     */
    exclusive_tenant: { type: 'boolean' },
    /** The longest a request may take, connecting and reading the whole answer included (default 15000). */
    timeout_ms: { type: 'integer', minimum: 1 },
  },
} as const;
export type Profile = FromSchema<typeof profileSchema>;
export type ClientCredentials = FromSchema<typeof client>;
export type ClientRole = keyof Profile['clients'];
