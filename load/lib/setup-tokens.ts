// A runner with no pre-flight to hand it tokens (a k6-operator pod) still starts every VU with one: its setup()
// fetches a token per client role the plan uses, before the common start, and returns them sealed (token-seal.ts);
// each VU opens them once, in its first iteration, then renews at its turns as any VU does (auth.ts). Where setup()
// got no token for a role, or a sealed one does not open, that VU fetches its own at its turn, as before.
import { heldToken, hold, tokenFor } from './auth.ts';
import { plan, prefetchedTokens, runnerOf, secretsAsGiven } from './config.ts';
import { openToken, type SealedToken, sealingKey, sealToken } from './token-seal.ts';

export type SealedTokens = Readonly<Record<string, SealedToken>>;

// Only where no pre-flight handed tokens over and a run id salts the key; derived in the init code, so every VU has
// it before its first iteration (those k6 starts mid-run pay the few ms then).
const { runId } = runnerOf;
const secrets = secretsAsGiven();
const key =
  !prefetchedTokens && runId && secrets ? sealingKey(secrets, runId).catch(() => undefined) : undefined;

/** setup(): a token per role, sealed; undefined when the pre-flight's tokens came or nothing can seal them. */
export const fetchSetupTokens = async (): Promise<SealedTokens | undefined> => {
  const sealing = await key;
  if (sealing === undefined) return undefined;
  const sealed: Record<string, SealedToken> = {};
  for (const role of Object.keys(plan.clients)) {
    // setup() takes no token turn: these requests come before the start, one per role and runner.
    if (tokenFor(role, { name: 'setup: token' }) === undefined) continue;
    sealed[role] = await sealToken(sealing, role, heldToken(role)!);
  }
  return sealed;
};

let opened = false;

/** A VU's first iteration: the tokens setup() sealed, held as if this VU had fetched them. */
export const openSetupTokens = async (sealed: SealedTokens | undefined): Promise<void> => {
  if (opened) return;
  opened = true;
  const sealing = await key;
  if (sealing === undefined || sealed === undefined) return;
  for (const [role, token] of Object.entries(sealed)) {
    const opening = await openToken(sealing, role, token);
    if (opening !== undefined) hold(role, opening);
  }
};
