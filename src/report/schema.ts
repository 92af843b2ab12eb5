// JSON Schema of conformance.json: the RunReport as JSON.stringify writes it. Consumers (dashboards, baselines)
// validate against this, so it is closed (additionalProperties: false) and every field the type requires is required
// here too; test/report/schema.test.ts asserts at compile time that the property names match the TypeScript types.
import { GRADES } from '../runner/grades.ts';
import { MAX_SEED } from '../runner/types.ts';

const isoTime = {
  type: 'string',
  pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?(Z|[+-]\\d{2}:\\d{2})$',
} as const;
const millis = { type: 'number', minimum: 0 } as const;
const nonEmpty = { type: 'string', minLength: 1 } as const;
const clause = { type: 'string', pattern: '^§' } as const;
const headers = { type: 'object', additionalProperties: { type: 'string' } } as const;
const strings = { type: 'array', items: { type: 'string' } } as const;

const grade = { type: 'string', enum: GRADES } as const;

const evidenceRequest = {
  type: 'object',
  additionalProperties: false,
  required: ['method', 'url', 'headers'],
  properties: { method: nonEmpty, url: nonEmpty, headers, body: { type: 'string' } },
} as const;

const evidenceResponse = {
  type: 'object',
  additionalProperties: false,
  required: ['status', 'headers'],
  properties: {
    status: { type: 'integer', minimum: 100, maximum: 599 },
    headers,
    body: { type: 'string' },
  },
} as const;

const evidenceRef = { $ref: '#/definitions/evidence' } as const;

const evidence = {
  type: 'object',
  additionalProperties: false,
  required: ['request', 'startedAt', 'durationMs'],
  properties: {
    label: { type: 'string' },
    request: evidenceRequest,
    response: evidenceResponse,
    startedAt: isoTime,
    durationMs: millis,
    error: {
      type: 'object',
      additionalProperties: false,
      required: ['kind', 'message'],
      properties: {
        kind: { type: 'string', enum: ['unreachable', 'reset', 'timeout', 'tls', 'other'] },
        message: { type: 'string' },
      },
    },
    // Recursive: the rejected request and the token fetch are exchanges in their own right.
    refresh: {
      type: 'object',
      additionalProperties: false,
      required: ['rejected', 'token'],
      properties: { rejected: evidenceRef, token: evidenceRef },
    },
  },
} as const;

/** Milliseconds from the probe's first request: negative before it. */
const offset = { type: 'number' } as const;

const timeline = {
  type: 'object',
  additionalProperties: false,
  required: ['limit', 'from', 'until', 'claim', 'counted', 'bound', 'requests'],
  properties: {
    limit: {
      type: 'object',
      additionalProperties: false,
      required: ['count', 'windowMs'],
      properties: {
        count: { type: 'integer', minimum: 1 },
        windowMs: { type: 'number', exclusiveMinimum: 0 },
      },
    },
    from: offset,
    until: offset,
    claim: { type: 'string', enum: ['over', 'under'] },
    counted: { type: 'integer', minimum: 0 },
    bound: { type: 'integer', minimum: 0 },
    shownOf: { type: 'integer', minimum: 0 },
    requests: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['sent', 'answered', 'counted'],
        properties: {
          sent: offset,
          answered: offset,
          status: { type: 'integer', minimum: 100, maximum: 599 },
          counted: { type: 'boolean' },
          refusal: { type: 'boolean' },
        },
      },
    },
  },
} as const;

const planItem = {
  type: 'object',
  additionalProperties: false,
  required: ['key', 'endpoint', 'requests', 'margin'],
  properties: {
    key: nonEmpty,
    endpoint: nonEmpty,
    requests: { type: 'integer', minimum: 0 },
    margin: { type: 'integer', minimum: 0 },
    probe: { type: 'boolean' },
  },
} as const;

const checkResult = {
  type: 'object',
  additionalProperties: false,
  required: [
    'id',
    'title',
    'clause',
    'section',
    'quote',
    'tags',
    'grade',
    'message',
    'startedAt',
    'durationMs',
    'evidence',
    'repro',
  ],
  properties: {
    id: { type: 'string', pattern: '^[A-Z0-9][A-Z0-9-]*$' },
    title: nonEmpty,
    clause,
    section: { type: 'string' },
    quote: { type: 'string' },
    // Present when the check follows an RFC where SPEC.md is silent: the quote is then that RFC's text.
    convention: {
      type: 'object',
      additionalProperties: false,
      required: ['rfc', 'section'],
      properties: {
        rfc: { type: 'string', pattern: '^RFC \\d+$' },
        section: { type: 'string', pattern: '^§' },
      },
    },
    tags: strings,
    grade,
    message: { type: 'string' },
    startedAt: isoTime,
    durationMs: millis,
    evidence: { type: 'array', items: evidenceRef },
    repro: strings,
    timeline,
  },
} as const;

const counts = {
  type: 'object',
  additionalProperties: false,
  required: GRADES,
  properties: Object.fromEntries(GRADES.map((g) => [g, { type: 'integer', minimum: 0 }])) as Record<
    (typeof GRADES)[number],
    { type: 'integer'; minimum: 0 }
  >,
} as const;

export const conformanceSchema = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  $id: 'https://harness.invalid/schemas/conformance.json',
  title: 'harness conformance report',
  type: 'object',
  additionalProperties: false,
  required: [
    'harness',
    'specDigest',
    'target',
    'profileHash',
    'command',
    'certifiable',
    'notCertifiable',
    'unverified',
    'startedAt',
    'finishedAt',
    'durationMs',
    'counts',
    'plan',
    'sent',
    'checks',
  ],
  properties: {
    harness: {
      type: 'object',
      additionalProperties: false,
      required: ['name', 'version'],
      properties: { name: { type: 'string', const: 'harness' }, version: nonEmpty },
    },
    specDigest: { type: 'string', pattern: '^sha256:[0-9a-f]{64}$' },
    target: {
      type: 'object',
      additionalProperties: false,
      required: ['base_url', 'auth_url', 'tenant'],
      properties: { base_url: nonEmpty, auth_url: nonEmpty, tenant: nonEmpty },
    },
    profileHash: { type: 'string', pattern: '^(sha256:)?[0-9a-f]{64}$' },
    command: { type: 'string' },
    certifiable: { type: 'boolean' },
    notCertifiable: strings,
    unverified: strings,
    startedAt: isoTime,
    finishedAt: isoTime,
    durationMs: millis,
    counts,
    plan: { type: 'array', items: planItem },
    sent: { type: 'object', additionalProperties: { type: 'integer', minimum: 0 } },
    seed: { type: 'integer', minimum: 1, maximum: MAX_SEED },
    checks: { type: 'array', items: checkResult },
    gate: {
      type: 'object',
      additionalProperties: false,
      required: ['strict', 'requireCertifiable'],
      properties: {
        strict: { type: 'boolean' },
        requireCertifiable: { type: 'boolean' },
        baseline: { type: 'object', additionalProperties: grade },
      },
    },
  },
  definitions: { evidence },
} as const;
