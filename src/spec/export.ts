// The spec constants k6 scripts read as plain JSON, since they cannot import the TypeScript module graph. Everything
// else k6 needs about the target (limits, endpoints, clients) reaches it already resolved (src/k6-driver/plan.ts).
import { GRANT_TYPE, RETRY_AFTER_PATTERN, TOKEN_LIFETIME_SECONDS } from './auth.ts';

export const SPEC_JSON_PATH = 'load/lib/spec.generated.json';

/** The shape is core/wire.ts's K6Spec (test/core/wire.test.ts holds them together). */
export const specData = () => ({
  note: 'Generated from src/spec by `npm run gen`; do not edit.',
  token: { grantType: GRANT_TYPE, lifetimeSeconds: TOKEN_LIFETIME_SECONDS },
  retryAfterPattern: RETRY_AFTER_PATTERN.source,
});

export const specAsJson = (): string => `${JSON.stringify(specData(), null, 2)}\n`;
