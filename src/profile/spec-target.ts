// The target of SPEC.md itself, for what lists or counts a full run's checks without a profile of a user's:
// `harness conformance --list`, and compare's check of run documents against the checks harness has.
import { DEFAULT_OBSERVABILITY } from '../reference/options.ts';
import { validateProfile } from './read.ts';
import { resolveTarget } from './target.ts';

/**
 * The checks of the embedded server: SPEC.md's endpoints and its observability endpoints (a profile names its own,
 * whose checks are named alike). This stand-in profile is never sent anywhere; its secret is a placeholder.
 */
export const SPEC_TARGET = resolveTarget(
  validateProfile(
    {
      base_url: 'http://127.0.0.1',
      auth_url: 'http://127.0.0.1/oauth/token',
      tenant: 'tenant',
      observability: [...DEFAULT_OBSERVABILITY],
      clients: { primary: { client_id: 'list', client_secret: 'not-a-secret' } },
    },
    'the check list',
  ),
);
