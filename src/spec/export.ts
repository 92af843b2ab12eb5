// What src/spec exports as files: the spec constants k6 scripts read as plain JSON, since they cannot import the
// TypeScript module graph (everything else k6 needs about the target reaches it already resolved:
// src/k6-driver/plan.ts), and the profile schema editors validate a profile with.
import { GRANT_TYPE, RETRY_AFTER_PATTERN, TOKEN_LIFETIME_SECONDS } from './auth.ts';
import { profileSchema } from './schemas.ts';

export const SPEC_JSON_PATH = 'load/lib/spec.generated.json';

/** The shape is core/wire.ts's K6Spec (test/core/wire.test.ts holds them together). */
export const specData = () => ({
  note: 'Generated from src/spec by `npm run gen`; do not edit.',
  token: { grantType: GRANT_TYPE, lifetimeSeconds: TOKEN_LIFETIME_SECONDS },
  retryAfterPattern: RETRY_AFTER_PATTERN.source,
});

export const specAsJson = (): string => `${JSON.stringify(specData(), null, 2)}\n`;

export const PROFILE_SCHEMA_PATH = 'schema/profile.schema.json';

/** profileSchema as a file an editor reads (`# yaml-language-server: $schema=…` in a profile). */
export const profileSchemaAsJson = (): string =>
  `${JSON.stringify({ $schema: 'http://json-schema.org/draft-07/schema#', ...profileSchema }, null, 2)}\n`;

/** Every file `npm run gen` writes, by path from the repository root. */
export const generatedFiles = (): ReadonlyMap<string, string> =>
  new Map([
    [SPEC_JSON_PATH, specAsJson()],
    [PROFILE_SCHEMA_PATH, profileSchemaAsJson()],
  ]);
