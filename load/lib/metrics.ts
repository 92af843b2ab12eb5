// Custom metrics every probe records. All carry the scenario tag; the per-phase Trends also carry the slot tag.
import { Counter, Gauge, Rate, Trend } from 'k6/metrics';
import { slotMetrics } from '../../core/phase-results.ts';
import { phases } from './config.ts';

/** Per phase: round trips (ms) of admitted requests and of 429s, tagged with the slot of their send time. */
export const evidence = slotMetrics(phases).map((names) => ({
  admitted: new Trend(names.admitted, true),
  limited: new Trend(names.limited, true),
}));

/** Answered neither 2xx nor 429 (after one token renewal; a redirect is never followed), tagged with the status. */
export const refused = new Counter('harness_refused');
/** Answered 401 and sent again with a fresh token (SPEC.md §5 rule 4): a gateway may have counted the first. */
export const renewed = new Counter('harness_renewed');
/** No answer at all: connection refused or reset, timeout. The network's or harness's trouble, not a verdict. */
export const networkErrors = new Counter('harness_network_errors');
/** Status of each failed token request (0: no answer), so the verdict can say what the token endpoint answered. */
export const tokenFailures = new Trend('harness_token_status');
/**
 * Token answers harness's reader left unread, each as its reason's bit (UNREAD_BITS) and tagged `answer` with the
 * reason's word: the verdict names why no token came. A stock k6 reads them whole first, so it records none.
 */
export const tokenUnread = new Trend('harness_token_unread');
/** Iterations that sent nothing: their VU had no token, its token endpoint failing (auth.ts backs off). */
export const noToken = new Counter('harness_no_token');
/** Sent too far past the phase's end to fit its slots: k6 could not keep to the schedule. */
export const unslotted = new Counter('harness_unslotted');
/** Of the 429s: Retry-After present and integer seconds (SPEC.md §8 rule 2). */
export const retryAfterValid = new Rate('harness_retry_after_valid');
export const retryAfterSeconds = new Trend('harness_retry_after_seconds');
/**
 * What the RateLimit header fields of the answers said (core/ratelimit-dialects.ts): the dialects seen, as bits, the
 * quota and window declared, and the remaining count on 429s. SPEC.md asks for none; the report shows what came.
 */
export const rateLimitDialects = new Trend('harness_ratelimit_dialects');
export const rateLimitQuota = new Trend('harness_ratelimit_quota');
export const rateLimitWindow = new Trend('harness_ratelimit_window');
export const rateLimitRemainingLimited = new Trend('harness_ratelimit_remaining_limited');
/** How late k6 started each iteration against its own schedule: the load generator's CPU starvation. */
export const startLag = new Trend('harness_start_lag', true);
/** Bounds on the target's clock minus this runner's (ms), from Date headers (clock.ts): the largest low, least high. */
export const clockLow = new Gauge('harness_clock_low');
export const clockHigh = new Gauge('harness_clock_high');
/** When setup() ended and this runner's schedule began (epoch ms): the checkpoint output's phases count from it. */
export const startedAt = new Gauge('harness_started_at');
