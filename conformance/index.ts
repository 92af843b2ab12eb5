// Every check, in the order they run within a lane. IDs are stable: baselines and --only refer to them.
import type { Target } from '../src/runner/target.ts';
import type { CheckDefinition } from '../src/runner/types.ts';
import { bearerChecks } from './bearer.ts';
import { limiterChecks } from './limiter.ts';
import { limitChecks } from './limits.ts';
import { independenceCheck, sharingChecks } from './sharing.ts';
import { tokenChecks } from './token.ts';

export const allChecks = (target: Target): CheckDefinition[] => [
  ...tokenChecks(),
  ...limitChecks(target),
  ...sharingChecks(),
  ...limiterChecks(),
  ...bearerChecks(),
  independenceCheck(),
];
