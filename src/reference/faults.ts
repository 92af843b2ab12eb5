// Deliberate deviations for testing harness itself: a server started with one of these breaks exactly one rule of
// SPEC.md (or of the standard it defers to) and keeps every other rule, so a check that fails only under its own
// fault is known to look at the right thing.
import type { Clause } from '../spec/index.ts';

interface FaultEntry {
  readonly name: string;
  readonly clause: Clause;
  /** What the fault breaks, in one line. */
  readonly rule: string;
  /** Set when the broken rule comes from a standard SPEC.md leaves the point to. */
  readonly standard?: string;
}

const FAULT_LIST = [
  {
    name: 'token-type-lowercase',
    clause: '§2',
    rule: 'token_type is `bearer` instead of `Bearer` (§5 rule 2)',
  },
  {
    name: 'expires-in-wrong',
    clause: '§2',
    rule: 'expires_in says twice the real token lifetime (7200 for 3600)',
  },
  {
    name: 'expires-in-string',
    clause: '§2',
    rule: 'expires_in is a JSON string ("3600") instead of an integer',
  },
  {
    name: 'token-json-only',
    clause: '§5 rule 1',
    rule: 'the token endpoint rejects a form-encoded body (400 invalid_request) and accepts only JSON',
  },
  {
    name: 'grant-type-unchecked',
    clause: '§4 token payload',
    rule: 'any grant_type value is accepted instead of only `client_credentials`',
  },
  {
    name: 'wrong-secret-401',
    clause: '§7',
    rule: 'a wrong client_secret gets 401 invalid_client instead of 400 (a wrong client_id still gets 400)',
  },
  {
    name: 'malformed-scope-accepted',
    clause: '§7',
    rule: 'a scope not of the form `tenant/<tenant-id>` is accepted instead of getting 400',
  },
  {
    name: 'unknown-client-401',
    clause: '§7',
    rule: 'a wrong client_id gets 401 invalid_client instead of 400 (a wrong secret still gets 400)',
  },
  {
    name: 'missing-scope-accepted',
    clause: '§4 token payload',
    rule: "a token request without scope gets a token (for the client's tenant) instead of 400",
  },
  {
    name: 'missing-secret-401',
    clause: '§4 token payload',
    rule: 'a token request without client_secret gets 401 invalid_client instead of 400 invalid_request',
    standard: 'RFC 6749 §5.2',
  },
  {
    name: 'unsupported-grant-401',
    clause: '§4 token payload',
    rule: 'a grant_type other than client_credentials gets 401 (unsupported_grant_type) instead of 400',
    standard: 'RFC 6749 §5.2',
  },
  {
    name: 'no-cache-control',
    clause: '§2',
    rule: 'token responses carry no `Cache-Control: no-store`',
    standard: 'RFC 6749 §5.1',
  },
  { name: 'retry-after-missing', clause: '§8 rule 2', rule: '429 responses carry no Retry-After header' },
  {
    name: 'retry-after-http-date',
    clause: '§8 rule 2',
    rule: 'Retry-After is an HTTP-date instead of integer seconds',
  },
  {
    name: 'retry-after-fractional',
    clause: '§8 rule 2',
    rule: 'Retry-After is fractional seconds (e.g. "1.5") instead of an integer',
  },
  {
    name: 'retry-after-too-short',
    clause: '§7',
    rule: 'Retry-After says at most half the real wait, so a retry that honours it is refused again',
  },
  {
    name: 'retry-after-too-long',
    clause: '§7',
    rule: 'Retry-After always says 3600, longer than any window, though capacity returns when the window ends',
  },
  { name: 'limited-as-503', clause: '§8 rule 2', rule: 'a request over the limit gets 503 instead of 429' },
  {
    name: 'limit-per-client',
    clause: '§8 rule 1',
    rule: 'limits are kept per client instead of per tenant, so two clients of one tenant get twice the limit',
  },
  {
    name: 'limit-shared-across-tenants',
    clause: '§8 rule 1',
    rule: 'limits are kept per endpoint only, so one tenant uses up the limit of every other tenant',
  },
  {
    name: 'observability-separate-buckets',
    clause: '§8 table',
    rule: 'each Observability endpoint has its own 100/min limit instead of one shared limit',
  },
  {
    name: 'limit-blocks-tenant',
    clause: '§8 rule 1',
    rule: "once a tenant is over one endpoint's limit, every endpoint refuses it (429) until that limit admits again",
  },
  {
    name: 'limit-per-path-id',
    clause: '§8 rule 1',
    rule: 'endpoints with a path id keep one limit per id value instead of one per endpoint',
  },
  {
    name: 'wrong-limit-execute',
    clause: '§8 table',
    rule: 'POST /api/rules/execute admits a third more than its limit (40/min instead of 30)',
  },
  {
    name: 'wrong-limit-transaction',
    clause: '§8 table',
    rule: 'POST /event/transaction/v3 admits 90% of its limit (450/s instead of 500)',
  },
  { name: 'no-limit-schedule', clause: '§8 table', rule: 'GET /api/rules/schedule is never limited' },
  {
    name: 'limit-penalty-box',
    clause: '§8 table',
    rule: 'GET /api/rules/schedule refuses for four windows after a refusal (Retry-After says so), so a client waiting for capacity is refused long past the window',
  },
  {
    name: 'limit-window-short',
    clause: '§8 table',
    rule: "every limit's window is shorter than stated (by default 0.75 of it: 45 s for a minute), with an honest Retry-After for that window",
  },
  {
    name: 'limit-early-reset',
    clause: '§8 table',
    rule: 'every limit resets every sixth of its window (six times the limit per window), while each 429 carries the Retry-After a faithful window would give',
  },
  {
    name: 'observability-split',
    clause: '§8 table',
    rule: 'each Observability endpoint has a limit of its own, a share of the stated one (25/min each for four: they add up to 100)',
  },
  {
    name: 'limit-first-window-low',
    clause: '§8 table',
    rule: "POST /api/transactions/batch/generate-upload-url admits half its limit in each tenant's first window (Retry-After honest); every later window is faithful",
  },
  {
    name: 'limit-counts-refused',
    clause: '§8 table',
    rule: 'refused requests count toward the limit (a log of every request, refused or not), so a client that retries while refused stays refused with fewer than the limit admitted',
  },
  {
    name: 'retry-after-short-late',
    clause: '§7',
    rule: 'Retry-After is honest except in the last sixth of the wait a window can give, where it says at most half the real wait',
  },
  {
    name: 'limit-queues',
    clause: '§8 rule 2',
    rule: 'a request to GET /api/rules/status/{execution_id} over the limit is held until the limit has room again and then served, never answered 429 (a queueing gateway)',
  },
  {
    name: 'issued-ids-unknown',
    clause: '§4',
    rule: 'the batch status, validation-result and rule status endpoints answer 404 even for ids the server issued',
  },
  {
    name: 'forbidden-as-401',
    clause: '§5 rule 6',
    rule: 'a valid token lacking permission gets 401 instead of 403',
  },
  {
    name: 'missing-token-accepted',
    clause: '§5 rule 3',
    rule: 'an API request without Authorization is served (as the primary client)',
  },
  {
    name: 'truncated-token-accepted',
    clause: '§5 rule 3',
    rule: 'a prefix (8 characters or more) of a valid token is accepted instead of only the full token',
  },
  {
    name: 'altered-token-accepted',
    clause: '§5 rule 3',
    rule: 'a token differing from an issued one in any one character is accepted, as if unsigned',
  },
  {
    name: 'no-www-authenticate',
    clause: '§5 rule 3',
    rule: 'a 401 for a missing, unknown or expired token carries no `WWW-Authenticate: Bearer` challenge',
    standard: 'RFC 6750 §3',
  },
  { name: 'expired-token-accepted', clause: '§5 rule 4', rule: 'tokens keep working after their lifetime' },
  {
    name: 'token-single-use',
    clause: '§5 rule 5',
    rule: 'a token works for one API call only instead of until it expires',
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
> = {
  'limit-window-short': { scales: 'the window, as a fraction of the stated one', default: 0.75 },
  'limit-early-reset': { scales: 'how often the limit resets, as a fraction of the window', default: 1 / 6 },
  'limit-first-window-low': {
    scales: "the share of the limit the tenant's first window admits",
    default: 0.5,
  },
};
