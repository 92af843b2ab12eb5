// Resolves ReferenceServerOptions into the settings the server runs with.
import { randomBytes } from 'node:crypto';
import { isIPv4 } from 'node:net';
import { DIALECT_NAMES, type RateLimitDialect } from '../../core/ratelimit-dialects.ts';
import { type Clock, REAL_CLOCK } from '../clock.ts';
import {
  BUCKETS,
  type BucketId,
  ENDPOINTS,
  type EndpointKey,
  isValidScope,
  type Limit,
  scopeFor,
  TOKEN_LIFETIME_SECONDS,
} from '../spec/index.ts';
import type { Behaviour } from './behaviour.ts';
import { behaviourOf, FAULT_FACTORS, type FaultName, isFaultName } from './faults.ts';
import { isLimiterKind, type LimiterKind } from './limiter-kinds.ts';

/** What the token endpoint hands out: random opaque strings, or JWTs signed with jose (jwt.ts). */
export const TOKEN_KINDS = ['opaque', 'jwt'] as const;
export type TokenKind = (typeof TOKEN_KINDS)[number];

/**
 * The embedded server's time scale, so a full run takes seconds: two-second "minutes" (room for a burst on a loaded
 * machine), and a 5 s token, which still expires within a run (the expiry check waits it out) but outlives a request
 * queued on a busy runner, so a refreshed token is not refused again before it is used.
 */
export const EMBEDDED_SCALE = { minuteMs: 2000, tokenLifetimeSeconds: 5 } as const;

export interface ReferenceClient {
  client_id: string;
  client_secret: string;
  tenant: string;
  lacks?: EndpointKey[];
}

export interface ReferenceServerOptions {
  /** Loopback only (127.0.0.0/8, ::1, localhost): the profile carries secrets in clear. */
  host?: string;
  port?: number;
  /** The first four are the roles primary, same_tenant, restricted, other_tenant, in that order. */
  clients?: ReferenceClient[];
  tenant?: string;
  tokenLifetimeSeconds?: number;
  /** Default opaque. */
  tokens?: TokenKind;
  /** How long a "minute" of a per-minute limit lasts, so tests need not wait a real minute. */
  minuteMs?: number;
  limits?: Partial<Record<BucketId, Limit>>;
  observability?: EndpointKey[];
  fault?: FaultName;
  /** The factor of a fault that takes one (FAULT_FACTORS), in (0, 1); the fault's default when left out. */
  faultFactor?: number;
  /** The algorithm behind every limit (default anchored); SPEC.md §8 names none. */
  limiter?: LimiterKind;
  /** Gateway mode: count requests toward a limit before authenticating them (see app.ts). Default false. */
  limitBeforeAuth?: boolean;
  /** Send RateLimit header fields in this dialect (SPEC.md asks for none; default none). */
  rateLimitFields?: RateLimitDialect;
  /**
   * Hostile, unlike a fault it breaks everything at once: every API request gets this status (a service that is
   * down answers 500, a gateway that rejects everything 400, a wrong base_url 404); the token endpoint still works.
   */
  apiStatus?: number;
  /** Drives token expiry, limit windows and held requests (the real clock unless given: a test's). */
  clock?: Clock;
  /** Serve HTTPS with this certificate and key (PEM); with `clientCa`, require client certificates it signed. */
  tls?: { cert: Buffer; key: Buffer; clientCa?: Buffer };
}

export interface ReferenceClients {
  primary: ReferenceClient;
  same_tenant: ReferenceClient;
  restricted: ReferenceClient;
  other_tenant: ReferenceClient;
}

export interface ResolvedReferenceOptions {
  readonly host: string;
  readonly port: number;
  readonly tenant: string;
  readonly clients: ReferenceClients;
  /** Every registered client: the four roles plus any further ones given. */
  readonly allClients: readonly ReferenceClient[];
  readonly tokenLifetimeSeconds: number;
  readonly tokens: TokenKind;
  readonly minuteMs: number;
  /** SPEC.md §8 with the overrides applied; a wrong-limit-* fault enforces a different count than this says. */
  readonly limits: Readonly<Record<BucketId, Limit>>;
  readonly observability: readonly EndpointKey[];
  readonly fault: FaultName | undefined;
  /** What the server does at each point a fault can break: FAITHFUL, with the fault's changes. */
  readonly behaviour: Behaviour;
  /** The fault's factor, when it takes one (FAULT_FACTORS). */
  readonly faultFactor: number | undefined;
  readonly limiter: LimiterKind;
  readonly limitBeforeAuth: boolean;
  /** The dialect asked for; a RateLimit fault sends its own when none is. */
  readonly rateLimitFields: RateLimitDialect | undefined;
  readonly apiStatus: number | undefined;
  readonly clock: Clock;
}

export const DEFAULT_OBSERVABILITY: readonly EndpointKey[] = [
  'GET /api/observability/transaction-summary',
  'GET /api/observability/batch-status',
  'GET /api/observability/rule-executions',
  'GET /api/observability/data-exports',
];

const secret = (): string => randomBytes(24).toString('base64url');

const defaultClients = (tenant: string): ReferenceClient[] => [
  { client_id: 'harness-primary', client_secret: secret(), tenant },
  { client_id: 'harness-same-tenant', client_secret: secret(), tenant },
  { client_id: 'harness-restricted', client_secret: secret(), tenant, lacks: ['POST /api/rules/rerun'] },
  {
    client_id: 'harness-other-tenant',
    client_secret: secret(),
    tenant: tenant === 'globex' ? 'initech' : 'globex',
  },
];

export const isLoopback = (host: string): boolean =>
  host === 'localhost' || host === '::1' || (isIPv4(host) && host.startsWith('127.'));

const positive = (name: string, value: number): number => {
  if (!Number.isFinite(value) || value <= 0) throw new RangeError(`${name} must be a positive number`);
  return value;
};

// expires_in is an integer (§2), so the lifetime is whole seconds.
const lifetime = (seconds: number): number => {
  if (!Number.isInteger(seconds) || seconds < 1)
    throw new RangeError('tokenLifetimeSeconds must be an integer >= 1');
  return seconds;
};

const roles = (clients: readonly ReferenceClient[], tenant: string): ReferenceClients => {
  const [primary, same_tenant, restricted, other_tenant] = clients;
  if (!primary || !same_tenant || !restricted || !other_tenant) {
    throw new TypeError('clients: give at least four (primary, same_tenant, restricted, other_tenant)');
  }
  if (primary.tenant !== tenant || same_tenant.tenant !== tenant || restricted.tenant !== tenant) {
    throw new TypeError(`clients: primary, same_tenant and restricted must belong to tenant ${tenant}`);
  }
  if (other_tenant.tenant === tenant)
    throw new TypeError('clients: other_tenant must belong to another tenant');
  const badTenant = clients.find((c) => !isValidScope(scopeFor(c.tenant)));
  if (badTenant)
    throw new TypeError(`clients: tenant ${JSON.stringify(badTenant.tenant)} cannot form a scope`);
  if (new Set(clients.map((c) => c.client_id)).size !== clients.length) {
    throw new TypeError('clients: client_id values must be unique');
  }
  return { primary, same_tenant, restricted, other_tenant };
};

export const resolveOptions = (options: ReferenceServerOptions = {}): ResolvedReferenceOptions => {
  const host = options.host ?? '127.0.0.1';
  if (!isLoopback(host)) throw new RangeError(`host ${host} is not a loopback address`);
  if (options.fault !== undefined && !isFaultName(options.fault)) {
    throw new RangeError(`unknown fault ${String(options.fault)}`);
  }
  const factor = options.fault === undefined ? undefined : FAULT_FACTORS[options.fault];
  if (options.faultFactor !== undefined) {
    if (factor === undefined) throw new RangeError(`fault ${String(options.fault)} takes no factor`);
    if (!(options.faultFactor > 0 && options.faultFactor < 1))
      throw new RangeError('faultFactor must be a number between 0 and 1');
  }
  const { apiStatus } = options;
  if (apiStatus !== undefined && !(Number.isInteger(apiStatus) && apiStatus >= 200 && apiStatus <= 599)) {
    throw new RangeError(`apiStatus ${apiStatus} is not an HTTP status`);
  }
  const limiter = options.limiter ?? 'anchored';
  if (!isLimiterKind(limiter)) throw new RangeError(`unknown limiter ${String(limiter)}`);
  const { rateLimitFields } = options;
  if (rateLimitFields !== undefined && !DIALECT_NAMES.includes(rateLimitFields)) {
    throw new RangeError(`unknown RateLimit dialect ${String(rateLimitFields)}`);
  }
  const tokens = options.tokens ?? 'opaque';
  if (!TOKEN_KINDS.includes(tokens)) throw new RangeError(`unknown token kind ${String(tokens)}`);
  const tenant = options.tenant ?? 'acme';
  const allClients = options.clients ?? defaultClients(tenant);
  const limits = {} as Record<BucketId, Limit>;
  for (const bucket of Object.values(BUCKETS)) {
    const override = options.limits?.[bucket.id];
    if (override && !(Number.isInteger(override.count) && override.count >= 1)) {
      throw new RangeError(`limits.${bucket.id}.count must be an integer >= 1`);
    }
    limits[bucket.id] = override ? { count: override.count, per: override.per } : bucket.limit;
  }
  const observability = options.observability ?? DEFAULT_OBSERVABILITY;
  for (const key of observability) {
    if (ENDPOINTS.some((e) => e.key === key)) throw new RangeError(`observability: ${key} is a §4 endpoint`);
  }
  return {
    host,
    port: options.port ?? 0,
    tenant,
    clients: roles(allClients, tenant),
    allClients,
    tokenLifetimeSeconds: lifetime(options.tokenLifetimeSeconds ?? TOKEN_LIFETIME_SECONDS),
    tokens,
    minuteMs: positive('minuteMs', options.minuteMs ?? 60_000),
    limits,
    observability: [...observability],
    fault: options.fault,
    behaviour: behaviourOf(options.fault),
    faultFactor: factor === undefined ? undefined : (options.faultFactor ?? factor.default),
    limiter,
    limitBeforeAuth: options.limitBeforeAuth ?? false,
    rateLimitFields,
    apiStatus: options.apiStatus,
    clock: options.clock ?? REAL_CLOCK,
  };
};
