// The spec data as plain JSON for k6 scripts, which cannot import the TypeScript module graph.
import type { SpecData } from '../../load/lib/plan.ts';
import * as auth from './auth.ts';
import { BUCKETS, ENDPOINTS, VERSIONING, windowSeconds } from './endpoints.ts';

export const SPEC_JSON_PATH = 'load/lib/spec.generated.json';

/** The spec data k6 reads, as the same object Node code can use (load/lib/plan.ts takes either). */
export const specData = () =>
  JSON.parse(
    JSON.stringify({
      note: 'Generated from src/spec by `npm run gen`; do not edit.',
      buckets: Object.fromEntries(
        Object.values(BUCKETS).map((b) => [b.id, { ...b, windowSeconds: windowSeconds(b.limit) }]),
      ),
      endpoints: ENDPOINTS,
      token: {
        contentType: auth.TOKEN_REQUEST_CONTENT_TYPE,
        grantType: auth.GRANT_TYPE,
        tokenType: auth.TOKEN_TYPE,
        lifetimeSeconds: auth.TOKEN_LIFETIME_SECONDS,
        fields: auth.TOKEN_REQUEST_FIELDS,
        scopePattern: auth.SCOPE_PATTERN.source,
      },
      retryAfterPattern: auth.RETRY_AFTER_PATTERN.source,
      errors: auth.ERROR_STATUSES,
      versioning: VERSIONING,
    }),
  ) as SpecData;

export const specAsJson = (): string => `${JSON.stringify(specData(), null, 2)}\n`;
