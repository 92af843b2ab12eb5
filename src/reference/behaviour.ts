// What the reference server does at each point where a fault can make it break a rule, as data: the faithful server
// is FAITHFUL, and each fault (faults.ts) is the few fields it changes. The server reads these fields and never a
// fault's name, so adding a fault is one entry in faults.ts (plus a field here, the first time a point is broken).
import type { BucketId, Clause, TokenRequestField } from '../spec/index.ts';
import type { LimiterKind, LimitState } from './limiter-kinds.ts';
import { HONEST_SAYING, type RateLimitSaying } from './ratelimit-fields.ts';

/** The Retry-After value for a wait of `ms` at clock time `now`, in a window of `windowMs`; undefined for no header. */
export type RetryAfter = (ms: number, now: number, windowMs: number) => string | undefined;

/** Where a limit's state is made: the bucket, its algorithm and numbers, and the fault's factor if it takes one. */
export interface LimitSetting {
  readonly bucket: BucketId;
  readonly kind: LimiterKind;
  readonly count: number;
  readonly windowMs: number;
  readonly factor: number | undefined;
}

/** A limit's state as the server keeps it for one key, with who owns the key and what all keys share. */
export interface KeptState {
  readonly state: LimitState;
  readonly bucket: BucketId;
  readonly owner: string;
  readonly windowMs: number;
  /** Per owner, until when every bucket refuses it (limit-blocks-tenant). */
  readonly blockedUntil: Map<string, number>;
}

export interface Behaviour {
  // The token endpoint (token-endpoint.ts).
  /** The body a token request must have. */
  readonly tokenBody: 'form' | 'json';
  /** A field a token request may leave out. */
  readonly mayOmit: TokenRequestField | undefined;
  readonly checksGrantType: boolean;
  /** The status of a grant_type other than client_credentials. */
  readonly unsupportedGrantStatus: 400 | 401;
  readonly wrongSecretStatus: 400 | 401;
  readonly unknownClientStatus: 400 | 401;
  readonly checksScopeForm: boolean;
  readonly expiresIn: (lifetimeSeconds: number) => number | string;
  readonly tokenType: (stated: string) => string;
  readonly cacheHeaders: Readonly<Record<string, string>>;
  // Bearer tokens and refusals (app.ts).
  readonly servesWithoutToken: boolean;
  readonly acceptsTruncatedTokens: boolean;
  readonly acceptsAlteredTokens: boolean;
  readonly acceptsExpiredTokens: boolean;
  readonly singleUseTokens: boolean;
  /** 401s carry `WWW-Authenticate: Bearer`. */
  readonly challenges: boolean;
  readonly forbiddenStatus: 401 | 403;
  readonly limitedStatus: 429 | 503;
  /**
   * Refusals of a key answered 503 instead (a limiter that errs now and then): `nth` picks them by their count (1 for
   * the key's first refusal), `retryAfter` says whether they keep the Retry-After a 429 would carry.
   */
  readonly otherRefusal: { readonly nth: (n: number) => boolean; readonly retryAfter: boolean } | undefined;
  /** A bucket whose requests over the limit are held until it has room, never refused. */
  readonly queues: BucketId | undefined;
  /** Path ids the server issued are found. */
  readonly knowsIssuedIds: boolean;
  // Limits (limiter.ts).
  /** The count enforced for the stated `count`; `parts`: the Observability endpoints it could be split among. */
  readonly enforcedCount: (bucket: BucketId, count: number, parts: number) => number;
  /** Who shares a limit of `bucket`. */
  readonly ownerOf: (
    client: { readonly client_id: string; readonly tenant: string },
    bucket: BucketId,
  ) => string;
  /** Each Observability endpoint keeps a limit of its own. */
  readonly splitsObservability: boolean;
  /** Endpoints with a path id keep a limit per id value: all of them (true), or that bucket's only. */
  readonly limitPerPathId: boolean | BucketId;
  /** A state of a broken algorithm instead of the faithful one; undefined where the bucket keeps its own. */
  readonly limitState: (setting: LimitSetting) => LimitState | undefined;
  /** A faithful state wrapped to break a rule across keys or windows. */
  readonly keptState: (kept: KeptState) => LimitState;
  readonly retryAfter: RetryAfter;
  /** What the RateLimit header fields say, and the dialect a fault needs them in (ratelimit-fields.ts). */
  readonly rateLimitFields: RateLimitSaying;
}

/** Rounded up, so waiting this long always reaches capacity again; never 0 while limited. */
export const honestRetryAfter = (ms: number): string => String(Math.max(1, Math.ceil(ms / 1000)));

export const FAITHFUL: Behaviour = {
  tokenBody: 'form',
  mayOmit: undefined,
  checksGrantType: true,
  unsupportedGrantStatus: 400,
  wrongSecretStatus: 400,
  unknownClientStatus: 400,
  checksScopeForm: true,
  expiresIn: (lifetimeSeconds) => lifetimeSeconds,
  tokenType: (stated) => stated,
  cacheHeaders: { 'cache-control': 'no-store', pragma: 'no-cache' },
  servesWithoutToken: false,
  acceptsTruncatedTokens: false,
  acceptsAlteredTokens: false,
  acceptsExpiredTokens: false,
  singleUseTokens: false,
  challenges: true,
  forbiddenStatus: 403,
  limitedStatus: 429,
  otherRefusal: undefined,
  queues: undefined,
  knowsIssuedIds: true,
  enforcedCount: (_bucket, count) => count,
  ownerOf: (client) => `tenant:${client.tenant}`,
  splitsObservability: false,
  limitPerPathId: false,
  limitState: () => undefined,
  keptState: ({ state }) => state,
  retryAfter: honestRetryAfter,
  rateLimitFields: HONEST_SAYING,
};

/** One fault: what it breaks, in words and as the points of behaviour it changes. */
export interface FaultEntry {
  readonly name: string;
  readonly clause: Clause;
  /** What the fault breaks, in one line. */
  readonly rule: string;
  /** Set when the broken rule comes from a standard SPEC.md leaves the point to. */
  readonly standard?: string;
  /** A factor the fault takes (`faultFactor`, `harness serve --fault-factor`): what it scales, and its default. */
  readonly factor?: { readonly scales: string; readonly default: number };
  /** What the server does instead of FAITHFUL: only the points the fault breaks. */
  readonly breaks: Partial<Behaviour>;
}
