// What a bucket's probe (probe.ts) is given and what it hands the checks that grade it, and the Retry-After readings
// they share.
import { type LimitWindow, mostAdmittedInSpan } from '../../../core/faithful-bounds.ts';
import type { Exchange } from '../../client/index.ts';
import type { BucketLimit } from '../../profile/target.ts';
import { type BucketId, type EndpointSpec, RETRY_AFTER_PATTERN } from '../../spec/index.ts';
import type { LoggedRequest, LogView } from '../bucket-log.ts';
import type { CheckContext } from '../context.ts';
import type { CallOptions } from '../session.ts';
import type { EdgeFree } from './limit-bounds.ts';
import type { Edge } from './window-edge.ts';

/** Requests sent once the bucket is spent, whose answer says whether they share it. */
export interface Variant {
  readonly name: string;
  readonly endpoint: EndpointSpec;
  /** Resolved before the bucket is spent, so the variant goes out while the bucket is still spent. */
  readonly options: (ctx: CheckContext) => Promise<CallOptions>;
  /** Must it be refused (it shares the spent bucket) or admitted (it has its own)? */
  readonly shares: boolean;
  /** The bucket the variant would draw from if it did not share: which tenant, which of its requests. */
  readonly own: (options: CallOptions, ctx: CheckContext) => LogView;
}

export interface ProbePlan {
  readonly bucket: BucketId;
  /** Endpoints the bursts go to, round-robin (several only for the shared Observability bucket). */
  readonly endpoints: readonly EndpointSpec[];
  readonly options: CallOptions;
  readonly variants: readonly Variant[];
}

export interface Burst {
  readonly name: string;
  /** Everything logged for the bucket while the burst ran. */
  readonly requests: readonly LoggedRequest[];
  /** Set on the fresh bursts: where, were the limiter a fixed window, no edge falls. */
  readonly edgeFree?: EdgeFree;
  /** Whether a request was refused though fewer than the limit can have been admitted in the window before it. */
  readonly refusedBelowLimit: boolean;
  /** Where it was: one more request, sent at once after the burst, whose answer says whether the refusal repeats. */
  readonly onceMore?: LoggedRequest;
}

export interface VariantResult {
  readonly variant: Variant;
  readonly options: CallOptions;
  readonly requests: readonly LoggedRequest[];
}

export interface ProbeResult {
  readonly limit: BucketLimit;
  readonly tenant: string;
  /** When the probe's first request left: evidence times are shown from here. */
  readonly origin: number;
  readonly spend: Burst;
  /** The first 429 of the probe, by answer. */
  readonly firstRefusal?: LoggedRequest;
  readonly polls: readonly LoggedRequest[];
  readonly edge?: Edge;
  /** Retry-After of the first refusal, when integer seconds. */
  readonly retryAfterSeconds?: number;
  readonly fresh: readonly Burst[];
  /**
   * The burst sent to end just before a window has passed since `windowEndAfter`: were the window shorter than
   * stated, another would have opened. Absent when no edge was found.
   */
  readonly windowEnd?: Burst;
  /** The refusal sent last before the edge: the window-end burst is timed to end within a window of it. */
  readonly windowEndAfter?: LoggedRequest;
  /** How many window-end bursts went: one more each time the last came too late to show the length (0: none). */
  readonly windowEndTries: number;
  readonly variants: ReadonlyMap<string, VariantResult>;
  /**
   * One request each where every faithful limiter had room again, a window after a burst that filled one: refused
   * there (and again at once), a window longer than stated.
   */
  readonly roomBacks: readonly Burst[];
  /** The first answer other than 429 of each endpoint (routing checks read it). */
  readonly firstByEndpoint: ReadonlyMap<string, Exchange>;
  /** Probe requests answered 401 or 403 even after a token refresh. */
  readonly unauthorised: number;
}

/** Window-end bursts sent again after one that came too late to show the window's length (on top of the first). */
export const WINDOW_END_RETRIES = 2;

/** At most this many past the limit and one: a limit of hundreds reaches a racy counter thickly enough already. */
const PAST_THE_LIMIT = 8;

/**
 * The fresh burst's size: one past what bound (S) allows at once where a fixed window's edge is ruled out (the limit
 * plus one), and a quarter of the limit more, at most PAST_THE_LIMIT. A counter checked before its last admits are
 * in it (a racy one) over-admits only the requests that reach it within that lag of the limit; behind 200 ms round
 * trips a burst's arrivals spread over some 60 ms, and more of them past the limit make one that close likelier.
 * Not many more: a wider burst's answers come later, and the window-end burst after it then comes too late.
 */
export const freshBurstSize = (limit: LimitWindow): number =>
  mostAdmittedInSpan(limit, 0, true) + 1 + Math.min(PAST_THE_LIMIT, Math.ceil(limit.count / 4));

/** Whole seconds, as SPEC.md §8 rule 2 requires; undefined for anything else. */
export const retryAfterSeconds = (exchange: Exchange): number | undefined => {
  const value = exchange.headers['retry-after']?.trim();
  return value !== undefined && RETRY_AFTER_PATTERN.test(value) ? Number(value) : undefined;
};

/** Slack for our own timing and the server's clock: a tenth of the window, at most a second. */
export const retryToleranceMs = (limit: BucketLimit): number =>
  Math.min(1000, Math.max(100, limit.windowMs / 10));

/** Digits of a Retry-After shown whole up to this many; a longer value is cut, with its length. */
const SHOWN_DIGITS = 40;

/**
 * The Retry-After as the server sent it, for messages: digits too many for a number show as sent, never as
 * `Infinity` or `3.6e+21`; `none` when there is no header.
 */
export const retryAfterShown = (exchange: Exchange): string => {
  const value = exchange.headers['retry-after']?.trim();
  if (value === undefined) return 'none';
  return value.length <= SHOWN_DIGITS
    ? value
    : `${value.slice(0, SHOWN_DIGITS)}… (${value.length} characters)`;
};

/**
 * How long to wait on a 429 before trying again: its Retry-After, but never longer than a window plus the tolerance,
 * by when every faithful limiter has room again (a longer Retry-After is graded by LIMIT-RETRY-AFTER-*, not waited
 * out); a window when it gives no integer seconds.
 */
export const retryWaitMs = (exchange: Exchange, limit: BucketLimit): number => {
  const seconds = retryAfterSeconds(exchange);
  const longest = limit.windowMs + retryToleranceMs(limit);
  return seconds === undefined ? limit.windowMs : Math.min(seconds * 1000, longest);
};

/** From the first of a burst's requests sent to the last answered (0 for none). */
export const widthOf = (requests: readonly Pick<LoggedRequest, 'sent' | 'answered'>[]): number =>
  requests.length === 0
    ? 0
    : Math.max(...requests.map((r) => r.answered)) - Math.min(...requests.map((r) => r.sent));
