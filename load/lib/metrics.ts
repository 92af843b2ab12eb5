// Custom metrics every probe records; all carry the request's scenario, endpoint and slot tags.
import { Counter, Rate, Trend } from 'k6/metrics';

export const admitted = new Counter('harness_admitted');
export const limited = new Counter('harness_limited');
/** Neither admitted nor limited: refused for the token, or an error status. Probes must see none. */
export const refused = new Counter('harness_refused');
/** Of the 429s: Retry-After present, integer seconds, no longer than the window (SPEC.md §8 rule 2). */
export const retryAfterValid = new Rate('harness_retry_after_valid');
export const retryAfterSeconds = new Trend('harness_retry_after_seconds');
