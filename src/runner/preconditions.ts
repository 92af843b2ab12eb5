// What a check needs before it can say anything about the server, declared where the check is registered (as
// Schemathesis's checks declare theirs) rather than tested by hand at the top of its run. Unmet, it SKIPs with why:
// what the profile must give is decided before the run, by the planner that --dry-run prints too.

import type { Target } from '../profile/target.ts';
import type { ClientRole } from '../spec/index.ts';
import { type CheckContext, sessionOf } from './context.ts';
import type { CheckDefinition } from './types.ts';

/** Met or not by the run itself (a token the target issues): resolves when met, ends the check with its SKIP when not. */
type RunPrecondition = (ctx: CheckContext) => unknown;

/**
 * Met or not by the profile alone: the planner (plan-skips.ts) SKIPs the check before the run starts, and --dry-run
 * lists it with the same reason, so the two never disagree.
 */
interface ProfileNeed {
  /** Why the profile cannot give the check what it needs; undefined when it can. */
  readonly unmetBy: (target: Target) => string | undefined;
}

export type Precondition = RunPrecondition | ProfileNeed;

/** A check as its area's file declares it: what it is, how it runs, and what it needs first. */
export interface CheckSpec extends CheckDefinition {
  /** What the profile must give (the first unmet decides the SKIP, before the run), then what the run must. */
  readonly requires?: readonly Precondition[];
}

/**
 * Every check registers through here (conformance/index.ts), as Schemathesis's do through its registry: the check
 * as the runner runs it, what the profile must give it for the planner, `run` starting by meeting the rest.
 */
export const check = ({ requires = [], ...definition }: CheckSpec): CheckDefinition => {
  const profileNeeds = requires.filter((need): need is ProfileNeed => typeof need !== 'function');
  const runNeeds = requires.filter((need): need is RunPrecondition => typeof need === 'function');
  return {
    ...definition,
    ...(profileNeeds.length === 0
      ? {}
      : {
          unmetBy: (target: Target) =>
            profileNeeds.map((need) => need.unmetBy(target)).find((why) => why !== undefined),
        }),
    run: async (ctx) => {
      for (const precondition of runNeeds) await precondition(ctx);
      return definition.run(ctx);
    },
  };
};

/** The profile names this client (clients.restricted, clients.same_tenant, ...). */
export const needsClient = (role: ClientRole): ProfileNeed => ({
  unmetBy: (target) =>
    target.profile.clients[role] === undefined ? `the profile has no clients.${role}` : undefined,
});

/** The token endpoint has issued this client a token (or does now): SKIP, naming AUTH-TOKEN-FORM, otherwise. */
export const needsToken =
  (role: ClientRole): RunPrecondition =>
  (ctx) =>
    sessionOf(ctx).tokens.issued(sessionOf(ctx).client(role));

/** The profile lists Observability endpoints: SPEC.md §4 shows none of their paths, so it may leave them out. */
export const needsObservabilityEndpoints: ProfileNeed = needsProfile(
  (target) => target.endpointsIn('observability').length > 0,
  'the profile lists no Observability endpoints',
);

/** The profile gives the check something to work on (`has`); SKIP by choice, saying what is missing, otherwise. */
export function needsProfile(has: (target: Target) => boolean, missing: string): ProfileNeed {
  return { unmetBy: (target) => (has(target) ? undefined : missing) };
}
