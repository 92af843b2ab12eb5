// The RateLimit header fields the reference server sends when asked to (`rateLimitFields`, `--ratelimit-fields`), in
// any of the dialects harness reads (core/ratelimit-dialects.ts). SPEC.md asks for none, so the faithful
// server sends none unless told; what they say is the limiter's own count, and a fault may make them say otherwise.
import { serializeList } from 'structured-headers';
import type { RateLimitDialect } from '../../core/ratelimit-dialects.ts';
import type { BucketId } from '../spec/index.ts';
import type { Left } from './limiter-kinds.ts';

/** What the fields say of one key's limit, in the whole seconds every dialect writes. */
export interface LimitSaid {
  readonly quota: number;
  readonly windowSeconds: number;
  /** Absent where the limit's state keeps no count (some faults' states): the policy alone is sent. */
  readonly remaining?: number;
  readonly resetSeconds?: number;
  /** On a refusal: the Retry-After it carries. */
  readonly retryAfterSeconds?: number;
}

/** How a server says its limits in RateLimit fields: a fault names the dialect it needs and bends what is said. */
export interface RateLimitSaying {
  readonly dialect?: RateLimitDialect;
  readonly says: (said: LimitSaid) => LimitSaid;
}

export const HONEST_SAYING: RateLimitSaying = { says: (said) => said };

/** Whole seconds rounded up, as Retry-After is: waiting that long always reaches the unit that comes back. */
export const limitSaid = (
  quota: number,
  windowMs: number,
  left: Left | undefined,
  retryAfter: string | undefined,
): LimitSaid => ({
  quota,
  windowSeconds: Math.ceil(windowMs / 1000),
  ...(left === undefined
    ? {}
    : { remaining: left.remaining, resetSeconds: Math.ceil(Math.max(0, left.resetMs) / 1000) }),
  ...(retryAfter !== undefined && /^\d+$/.test(retryAfter) ? { retryAfterSeconds: Number(retryAfter) } : {}),
});

/** The header fields (lower-case names) `said` takes in `dialect`, naming the policy after the bucket. */
export const rateLimitHeaders = (
  dialect: RateLimitDialect,
  bucket: BucketId,
  said: LimitSaid,
): Record<string, string> => {
  const { quota, windowSeconds, remaining, resetSeconds } = said;
  if (dialect === 'draft') {
    const current = new Map<string, number>([
      ...(remaining === undefined ? [] : [['r', remaining] as const]),
      ...(resetSeconds === undefined ? [] : [['t', resetSeconds] as const]),
    ]);
    return {
      'ratelimit-policy': serializeList([
        [
          bucket,
          new Map([
            ['q', quota],
            ['w', windowSeconds],
          ]),
        ],
      ]),
      ...(current.size === 0 ? {} : { ratelimit: serializeList([[bucket, current]]) }),
    };
  }
  if (dialect === 'draft-7') {
    // As express-rate-limit's draft-7 writes them: the older policy beside the Dictionary.
    const current = [
      `limit=${quota}`,
      ...(remaining === undefined ? [] : [`remaining=${remaining}`]),
      ...(resetSeconds === undefined ? [] : [`reset=${resetSeconds}`]),
    ];
    return { 'ratelimit-policy': `${quota};w=${windowSeconds}`, ratelimit: current.join(', ') };
  }
  // Kong writes the quota alone; Envoy's draft-03 names add the window as a quota policy.
  const prefix = dialect === 'triple' ? 'ratelimit' : 'x-ratelimit';
  const limit = dialect === 'triple' ? String(quota) : `${quota}, ${quota};w=${windowSeconds}`;
  return {
    [`${prefix}-limit`]: limit,
    ...(remaining === undefined ? {} : { [`${prefix}-remaining`]: String(remaining) }),
    ...(resetSeconds === undefined ? {} : { [`${prefix}-reset`]: String(resetSeconds) }),
  };
};
