// The JSON Schema of a certification manifest (manifest.ts), for `harness verify`. A signature proves who wrote a
// manifest, not that its shape is one harness writes: a key holder's mistake or a bug must end as a one-line mismatch,
// never a stack trace, and a manifest that lists no file or one file twice certifies nothing it says. The schema
// sits beside the Manifest interface, and the Assert below stops the build the moment the two describe different JSON.
import type { FromSchema } from 'json-schema-to-ts';
import type { Assert, SameShape } from '../same-shape.ts';
import { schemaFault } from '../schema-fault.ts';
import { validatorOf } from '../validator.ts';
import { MANIFEST_FORMAT, type Manifest } from './manifest.ts';

const text = { type: 'string' } as const;
const sha256 = { type: 'string', pattern: '^[0-9a-f]{64}$' } as const;

const commandSummary = {
  type: 'object',
  additionalProperties: false,
  required: ['exitCode', 'summary'],
  properties: { exitCode: { type: 'integer' }, summary: text },
} as const;

export const manifestSchema = {
  $id: 'https://harness.invalid/schemas/certification-manifest.json',
  type: 'object',
  additionalProperties: false,
  required: [
    'format',
    'harness',
    'spec',
    'node',
    'k6',
    'target',
    'profile',
    'startedAt',
    'finishedAt',
    'certifiable',
    'notCertifiable',
    'conformance',
    'load',
    'signer',
    'files',
  ],
  properties: {
    format: { type: 'string', const: MANIFEST_FORMAT },
    harness: {
      type: 'object',
      additionalProperties: false,
      required: ['version', 'commit'],
      properties: { version: text, commit: text },
    },
    spec: {
      type: 'object',
      additionalProperties: false,
      required: ['path', 'sha256'],
      properties: { path: { type: 'string', const: 'SPEC.md' }, sha256 },
    },
    node: text,
    k6: text,
    target: {
      type: 'object',
      additionalProperties: false,
      required: ['base_url', 'auth_url', 'tenant', 'embedded'],
      properties: { base_url: text, auth_url: text, tenant: text, embedded: { type: 'boolean' } },
    },
    // The profile as run, redacted (or null): what it holds is the certifier's to read, not verify's to check.
    profile: {},
    startedAt: text,
    finishedAt: text,
    certifiable: { type: 'boolean' },
    notCertifiable: { type: 'array', items: text },
    conformance: commandSummary,
    load: commandSummary,
    signer: {
      type: 'object',
      additionalProperties: false,
      required: ['algorithm', 'publicKeySha256'],
      properties: { algorithm: { type: 'string', const: 'Ed25519' }, publicKeySha256: sha256 },
    },
    files: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['path', 'sha256', 'bytes'],
        properties: {
          path: { type: 'string', minLength: 1 },
          sha256,
          bytes: { type: 'integer', minimum: 0 },
        },
      },
    },
  },
} as const;

/** @public A compile-time check, never imported: the schema and the Manifest type describe the same shape. */
export type _SchemaIsManifest = Assert<SameShape<Manifest, FromSchema<typeof manifestSchema>>>;

// allErrors off: the first fault is the one line verify prints.
const manifestValidator = validatorOf<Manifest>({ strict: true, allErrors: false }, manifestSchema);

/** Why a parsed, signed manifest is none harness would write, or undefined when it is one. */
export const manifestFault = (value: unknown): string | undefined => {
  const validate = manifestValidator();
  if (!validate(value)) return schemaFault(validate.errors![0]!, 'a manifest');
  if (value.files.length === 0)
    return '/files: lists no file, where every archive holds the reports it certifies';
  const seen = new Set<string>();
  for (const [i, { path }] of value.files.entries()) {
    // Listed twice, a file would be counted twice in "all N files match" and hashed against one entry only.
    if (seen.has(path)) return `/files/${i}: lists ${path} a second time`;
    seen.add(path);
  }
  return undefined;
};
