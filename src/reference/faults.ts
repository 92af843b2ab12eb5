// Deliberate deviations for testing harness itself: a server started with one of these breaks exactly one rule of
// SPEC.md (or of the standard it defers to) and keeps every other rule, so a check that fails only under its own
// fault is known to look at the right thing. One entry per fault: its name, the clause it breaks and how, and the
// points of the server's behaviour (behaviour.ts) it changes; the server reads those, never a fault's name.
import { type Behaviour, FAITHFUL, type FaultEntry } from './behaviour.ts';
import { LIMIT_FAULTS } from './limit-fault-list.ts';
import { RATELIMIT_FAULTS } from './ratelimit-fault-list.ts';
import { SHARING_FAULTS } from './sharing-fault-list.ts';

const FAULT_LIST = [
  {
    name: 'token-type-lowercase',
    clause: '§2',
    rule: 'token_type is `bearer` instead of `Bearer` (§5 rule 2)',
    breaks: { tokenType: (stated) => stated.toLowerCase() },
  },
  {
    name: 'expires-in-wrong',
    clause: '§2',
    rule: 'expires_in says twice the real token lifetime (7200 for 3600)',
    breaks: { expiresIn: (lifetime) => lifetime * 2 },
  },
  {
    name: 'expires-in-string',
    clause: '§2',
    rule: 'expires_in is a JSON string ("3600") instead of an integer',
    breaks: { expiresIn: (lifetime) => String(lifetime) },
  },
  {
    name: 'token-json-only',
    clause: '§5 rule 1',
    rule: 'the token endpoint rejects a form-encoded body (400 invalid_request) and accepts only JSON',
    breaks: { tokenBody: 'json' },
  },
  {
    name: 'grant-type-unchecked',
    clause: '§4 token payload',
    rule: 'any grant_type value is accepted instead of only `client_credentials`',
    breaks: { checksGrantType: false },
  },
  {
    name: 'wrong-secret-401',
    clause: '§7',
    rule: 'a wrong client_secret gets 401 invalid_client instead of 400 (a wrong client_id still gets 400)',
    breaks: { wrongSecretStatus: 401 },
  },
  {
    name: 'malformed-scope-accepted',
    clause: '§7',
    rule: 'a scope not of the form `tenant/<tenant-id>` is accepted instead of getting 400',
    breaks: { checksScopeForm: false },
  },
  {
    name: 'unknown-client-401',
    clause: '§7',
    rule: 'a wrong client_id gets 401 invalid_client instead of 400 (a wrong secret still gets 400)',
    breaks: { unknownClientStatus: 401 },
  },
  {
    name: 'missing-scope-accepted',
    clause: '§4 token payload',
    rule: "a token request without scope gets a token (for the client's tenant) instead of 400",
    breaks: { mayOmit: 'scope' },
  },
  {
    name: 'missing-secret-401',
    clause: '§4 token payload',
    rule: 'a token request without client_secret gets 401 invalid_client instead of 400 invalid_request',
    standard: 'RFC 6749 §5.2',
    breaks: { mayOmit: 'client_secret' },
  },
  {
    name: 'unsupported-grant-401',
    clause: '§4 token payload',
    rule: 'a grant_type other than client_credentials gets 401 (unsupported_grant_type) instead of 400',
    standard: 'RFC 6749 §5.2',
    breaks: { unsupportedGrantStatus: 401 },
  },
  {
    name: 'no-cache-control',
    clause: '§2',
    rule: 'token responses carry no `Cache-Control: no-store`',
    standard: 'RFC 6749 §5.1',
    breaks: { cacheHeaders: { pragma: 'no-cache' } },
  },
  ...LIMIT_FAULTS,
  ...SHARING_FAULTS,
  ...RATELIMIT_FAULTS,
  {
    name: 'forbidden-as-401',
    clause: '§5 rule 6',
    rule: 'a valid token lacking permission gets 401 instead of 403',
    breaks: { forbiddenStatus: 401 },
  },
  {
    name: 'missing-token-accepted',
    clause: '§5 rule 3',
    rule: 'an API request without Authorization is served (as the primary client)',
    breaks: { servesWithoutToken: true },
  },
  {
    name: 'truncated-token-accepted',
    clause: '§5 rule 3',
    rule: 'a prefix (8 characters or more) of a valid token is accepted instead of only the full token',
    breaks: { acceptsTruncatedTokens: true },
  },
  {
    name: 'altered-token-accepted',
    clause: '§5 rule 3',
    rule: 'a token differing from an issued one in any one character is accepted, as if unsigned',
    breaks: { acceptsAlteredTokens: true },
  },
  {
    name: 'no-www-authenticate',
    clause: '§5 rule 3',
    rule: 'a 401 for a missing, unknown or expired token carries no `WWW-Authenticate: Bearer` challenge',
    standard: 'RFC 6750 §3',
    breaks: { challenges: false },
  },
  {
    name: 'expired-token-accepted',
    clause: '§5 rule 4',
    rule: 'tokens keep working after their lifetime',
    breaks: { acceptsExpiredTokens: true },
  },
  {
    name: 'token-single-use',
    clause: '§5 rule 5',
    rule: 'a token works for one API call only instead of until it expires',
    breaks: { singleUseTokens: true },
  },
] as const satisfies readonly FaultEntry[];

export type FaultName = (typeof FAULT_LIST)[number]['name'];
export interface FaultSpec extends FaultEntry {
  readonly name: FaultName;
}
export const FAULTS: readonly FaultSpec[] = FAULT_LIST;

const NAMES: ReadonlySet<string> = new Set(FAULTS.map((f) => f.name));
export const isFaultName = (name: string): name is FaultName => NAMES.has(name);

/** Faults that take a factor (`faultFactor`, `harness serve --fault-factor`): what it scales, and its default. */
export const FAULT_FACTORS: Partial<
  Record<FaultName, { readonly scales: string; readonly default: number }>
> = Object.fromEntries(FAULTS.flatMap((f) => (f.factor === undefined ? [] : [[f.name, f.factor]])));

/** How the server behaves under `fault`, or faithfully without one. */
export const behaviourOf = (fault: FaultName | undefined): Behaviour => ({
  ...FAITHFUL,
  ...FAULTS.find((f) => f.name === fault)?.breaks,
});
