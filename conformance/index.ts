// Every check, in the order they run within a lane. IDs are stable: baselines and --only refer to them.
import { type CheckDefinition, check, type Target } from '../src/runner/checks.ts';
import { bearerChecks } from './bearer.ts';
import { independenceCheck } from './independence.ts';
import { limiterChecks } from './limiter.ts';
import { limitChecks } from './limits.ts';
import { rateLimitFieldChecks } from './ratelimit-fields.ts';
import { sharingChecks } from './sharing.ts';
import { tokenChecks } from './token.ts';

/** Every check, each registered through check(), which meets its preconditions before it runs. */
export const allChecks = (target: Target): CheckDefinition[] =>
  [
    ...tokenChecks(),
    ...limitChecks(target),
    ...sharingChecks(),
    ...limiterChecks(),
    ...rateLimitFieldChecks(),
    ...bearerChecks(),
    independenceCheck(),
  ].map(check);
