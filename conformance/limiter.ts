// Beyond SPEC.md: which kind of limiter the target runs, told from outside (README: "The reference server"),
// and the burst a client can get across a window edge. Recorded as INFO; SPEC.md §8 does not prescribe a kind. It
// reads the Observability bucket's probe: how long after the first 429 capacity came back, and what Retry-After said.

import {
  type CheckContext,
  type CheckSpec,
  info,
  needsObservabilityEndpoints,
  retryAfterShown,
  skip,
} from '../src/runner/checks.ts';
import { type BucketId, cite, limitQuote } from '../src/spec/index.ts';
import { probe, probeRequests } from './bucket-probe.ts';

/** The Observability bucket: never side-effecting and large enough for a burst to say something. */
const BUCKET: BucketId = 'observability';

const classify = async (ctx: CheckContext): Promise<string> => {
  const result = await probe(ctx, BUCKET);
  const { edge, firstRefusal, retryAfterSeconds: seconds, limit } = result;
  if (edge === undefined || firstRefusal === undefined || seconds === undefined) {
    return skip('the probe did not see a 429 with an integer Retry-After followed by an admitted request');
  }
  const n = limit.count;
  const windowS = limit.windowMs / 1000;
  const waitedMs = Math.round(edge.by - firstRefusal.answered);
  const observed = `Retry-After ${firstRefusal.exchange ? retryAfterShown(firstRefusal.exchange) : seconds} s; capacity back ${waitedMs} ms after the 429`;
  // A clock-aligned window's edge is a multiple of the window since the epoch; an anchored window's (and a sliding
  // log's, for a burst ages out as a burst) lies one window after our first request of the bucket. Told first: an
  // aligned window can end right after the spend burst, as soon as a token bucket's next token comes.
  const aligned = Math.floor(edge.by / limit.windowMs) * limit.windowMs > edge.after;
  const first = Math.min(...result.spend.requests.map((r) => r.sent));
  const last = Math.max(...result.spend.requests.map((r) => r.answered));
  const anchored = first + limit.windowMs <= edge.by && last + limit.windowMs > edge.after;
  if (aligned && !anchored) {
    return info(
      `clock-aligned fixed window: ${observed}; a client can get up to ${2 * n} requests across a window edge`,
    );
  }
  // A token bucket has a token again within a refill period, and says so; a fixed window or a sliding log whose
  // burst aged out as one makes a client wait about a window.
  if (seconds <= Math.ceil(windowS / n) + 1 && waitedMs < limit.windowMs / 2) {
    return info(
      `token bucket / GCRA: ${observed}; capacity returns one request per ${(windowS / n).toFixed(2)} s, so a burst at an edge gets about ${n + 1}`,
    );
  }
  return info(
    `fixed window anchored at the first request, or a sliding log (bursts alone cannot tell them apart): ${observed}; a fixed window lets a client get up to ${2 * n} requests across a window edge, a sliding log never more than ${n} in any ${windowS} s`,
  );
};

export const limiterChecks = (): CheckSpec[] => [
  {
    id: 'LIMITER-ALGORITHM',
    failsWith: [],
    title: 'Which kind of rate limiter the target runs, and the burst it allows at a window edge',
    // The limit whose enforcement it characterises: SPEC.md gives a count per window and no algorithm.
    ...cite(limitQuote(BUCKET)),
    tags: ['limits', 'limiter'],
    lane: BUCKET,
    required: false,
    // It sends nothing of its own: it reads the Observability probe.
    // The probe it reads: planned here too, so it is set aside even when no limit check of the bucket runs.
    plan: (target) => probeRequests(target, BUCKET),
    requires: [needsObservabilityEndpoints],
    run: classify,
  },
];
