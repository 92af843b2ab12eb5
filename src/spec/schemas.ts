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

// The descriptions are what an editor shows for a field (schema/profile.schema.json is written from this object).
const client = {
  type: 'object',
  additionalProperties: false,
  required: ['client_id', 'client_secret'],
  properties: {
    client_id: { ...nonEmpty, description: 'OAuth client id; ${VAR} takes it from the environment.' },
    client_secret: {
      ...nonEmpty,
      description: 'OAuth client secret: write ${VAR} so it stays out of the file. Never shown in a report.',
    },
    tenant: {
      ...nonEmpty,
      description: "This client's tenant when it differs from the profile's (the other_tenant client).",
    },
    lacks: {
      type: 'array',
      items: endpointKey,
      description:
        'Endpoint keys this client has no permission for (SPEC.md §5 rule 6), e.g. "POST /api/rules/rerun".',
    },
  },
} as const;

const idSource = {
  type: 'object',
  additionalProperties: false,
  description: "Where the id comes from: an endpoint's answer (from + pointer) or a fixed value.",
  properties: {
    from: { ...endpointKey, description: 'The endpoint key whose answer carries the id.' },
    pointer: {
      type: 'string',
      pattern: '^(/.*)?$',
      description: 'Where the id sits in that answer: a JSON Pointer (RFC 6901), e.g. /batch_id.',
    },
    value: { ...nonEmpty, description: 'A fixed, known id instead.' },
  },
  oneOf: [{ required: ['from', 'pointer'] }, { required: ['value'] }],
} as const;

const limitOverride = {
  type: 'object',
  additionalProperties: false,
  required: ['count', 'per'],
  description: "The limit this target enforces instead of SPEC.md §8's.",
  properties: {
    count: { type: 'integer', minimum: 1, description: 'Requests admitted per window.' },
    per: { type: 'string', enum: ['second', 'minute'], description: 'The window.' },
  },
} as const;

export const profileSchema = {
  $id: 'https://harness.invalid/schemas/profile.json',
  title: 'harness profile',
  description:
    'A target for harness (conformance, load, certify): what SPEC.md leaves open. ${VAR} takes a value from the environment.',
  type: 'object',
  additionalProperties: false,
  required: ['base_url', 'auth_url', 'tenant', 'clients'],
  properties: {
    base_url: { ...httpUrl, description: 'Where the API endpoints are, e.g. https://staging.example.test.' },
    auth_url: { ...httpUrl, description: "The tenant's token endpoint (SPEC.md §2)." },
    tenant: {
      type: 'string',
      pattern: '^[^/\\s]+$',
      description: 'The tenant: tokens have scope tenant/<this>.',
    },
    clients: {
      type: 'object',
      additionalProperties: false,
      required: ['primary'],
      description: 'The OAuth clients harness uses; only primary is required, the others enable more checks.',
      properties: {
        primary: { ...client, description: 'The client most checks use.' },
        same_tenant: { ...client, description: 'A second app of the same tenant (limit-sharing checks).' },
        restricted: {
          ...client,
          required: ['client_id', 'client_secret', 'lacks'],
          description: 'A client lacking permission for some endpoints (403 checks).',
        },
        other_tenant: {
          ...client,
          required: ['client_id', 'client_secret', 'tenant'],
          description: 'A client of another tenant (isolation checks); give its tenant.',
        },
      },
    },
    observability: {
      type: 'array',
      items: endpointKey,
      uniqueItems: true,
      description: 'The observability endpoint keys, which share one 100/min bucket.',
    },
    requests: {
      type: 'object',
      propertyNames: endpointKey,
      description: 'Bodies, queries and headers SPEC.md does not show, by endpoint key.',
      additionalProperties: {
        type: 'object',
        additionalProperties: false,
        properties: {
          body: { description: 'The JSON body to send.' },
          query: {
            type: 'object',
            additionalProperties: { type: 'string' },
            description: 'Query parameters.',
          },
          headers: {
            type: 'object',
            additionalProperties: { type: 'string' },
            description: 'Extra request headers; credential-like ones are secret.',
          },
        },
      },
    },
    ids: {
      type: 'object',
      additionalProperties: false,
      description: 'Where the ids in endpoint paths come from.',
      properties: { batch_id: idSource, execution_id: idSource },
    },
    side_effects: {
      description:
        'Whether harness may call the endpoints that act: allow, deny, or a list of those it may. Required off loopback.',
      oneOf: [
        { type: 'string', enum: ['allow', 'deny'] },
        { type: 'array', items: endpointKey },
      ],
    },
    limits: {
      type: 'object',
      additionalProperties: limitOverride,
      description:
        'Overrides of SPEC.md §8 limits, by endpoint key or bucket id: the run is then not certifiable.',
    },
    token_lifetime: {
      type: 'integer',
      minimum: 1,
      description:
        'Override of the 3600 s token lifetime (test servers only): the run is then not certifiable.',
    },
    minute_ms: {
      type: 'integer',
      minimum: 1000,
      description:
        'How long a "minute" of per-minute limits lasts (test servers only): the run is then not certifiable.',
    },
    tls: {
      type: 'object',
      additionalProperties: false,
      description:
        'TLS towards the target; files are relative to the profile. The flags --ca, --cert, --key, --insecure win.',
      properties: {
        ca: { ...nonEmpty, description: 'A CA certificate (PEM) trusted beside the usual roots.' },
        cert: { ...nonEmpty, description: 'Mutual TLS: the client certificate (PEM); needs key.' },
        key: { ...nonEmpty, description: 'Mutual TLS: the client key (PEM); never copied into a report.' },
        insecure: {
          type: 'boolean',
          description: 'Skip certificate verification: a loud warning, and the run is not certifiable.',
        },
      },
      dependencies: { cert: ['key'], key: ['cert'] },
    },
    exclusive_tenant: {
      type: 'boolean',
      description:
        'Nothing but harness uses the tenant during the run: a refusal below a limit is then a FAIL, not INCONCLUSIVE.',
    },
    timeout_ms: {
      type: 'integer',
      minimum: 1,
      description:
        'The longest one request may take, connecting and reading the whole answer included (default 15000).',
    },
  },
} as const;
export type Profile = FromSchema<typeof profileSchema>;
export type ClientCredentials = FromSchema<typeof client>;
export type ClientRole = keyof Profile['clients'];
