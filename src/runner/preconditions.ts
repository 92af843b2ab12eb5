// What a check needs before it can say anything about the server, declared where the check is registered (as
// Schemathesis's checks declare theirs) rather than tested by hand at the top of its run. Unmet, it SKIPs with why.
import type { ClientRole } from '../spec/index.ts';
import { type CheckContext, sessionOf } from './context.ts';
import { skipByChoice } from './grades.ts';
import type { Target } from './target.ts';
import type { CheckDefinition } from './types.ts';

/** Resolves when met; ends the check by throwing its SKIP (see grades.ts) when not. */
export type Precondition = (ctx: CheckContext) => unknown;

/** A check as its area's file declares it: what it is, how it runs, and what it needs first. */
export interface CheckSpec extends CheckDefinition {
  /** Met in order before `run` starts; the first unmet one decides the SKIP. */
  readonly requires?: readonly Precondition[];
}

/**
 * Every check registers through here (conformance/index.ts), as Schemathesis's do through its registry: the check
 * as the runner runs it, `run` starting by meeting what it `requires`.
 */
export const check = ({ requires = [], ...definition }: CheckSpec): CheckDefinition => ({
  ...definition,
  run: async (ctx) => {
    for (const precondition of requires) await precondition(ctx);
    return definition.run(ctx);
  },
});

/** The profile names this client (clients.restricted, clients.same_tenant, ...): SKIP by choice otherwise. */
export const needsClient =
  (role: ClientRole): Precondition =>
  (ctx) =>
    sessionOf(ctx).client(role);

/** The token endpoint has issued this client a token (or does now): SKIP, naming AUTH-TOKEN-FORM, otherwise. */
export const needsToken =
  (role: ClientRole): Precondition =>
  (ctx) =>
    sessionOf(ctx).tokens.issued(sessionOf(ctx).client(role));

/** The profile lists Observability endpoints: SPEC.md §4 shows none of their paths, so it may leave them out. */
export const needsObservabilityEndpoints: Precondition = (ctx) =>
  ctx.target.endpointsIn('observability').length > 0 ||
  skipByChoice('the profile lists no Observability endpoints');

/** The profile gives the check something to work on (`has`); SKIP by choice, saying what is missing, otherwise. */
export const needsProfile =
  (has: (target: Target) => boolean, missing: string): Precondition =>
  (ctx) =>
    has(ctx.target) || skipByChoice(missing);
