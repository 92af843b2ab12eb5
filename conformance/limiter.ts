// Beyond SPEC.md: which kind of limiter the target runs, told from outside (see FACTS: "Telling limiters apart"),
// and the burst a client can get across a window edge. Recorded as INFO; SPEC.md §8 does not prescribe a kind. It
// reads the Observability bucket's probe: what came back after the first 429 and right after the edge.
import type { CheckContext } from '../src/conformance/context.ts';
import { info, skip } from '../src/conformance/grades.ts';
import { isSuccess } from '../src/conformance/probe.ts';
import type { CheckDefinition } from '../src/conformance/types.ts';
import type { BucketId } from '../src/spec/index.ts';
import { probe } from './bucket-probe.ts';

/** The Observability bucket: never side-effecting and large enough for a burst to say something. */
const BUCKET: BucketId = 'observability';

const classify = async (ctx: CheckContext): Promise<string> => {
  if (ctx.target.endpointsIn(BUCKET).length === 0)
    return skip('the profile lists no Observability endpoints');
  const result = await probe(ctx, BUCKET);
  const { edge, afterEdge, firstRefusal, retryAfterSeconds: seconds, limit } = result;
  if (edge === undefined || afterEdge === undefined || firstRefusal === undefined || seconds === undefined) {
    return skip('the probe did not see a 429 with an integer Retry-After followed by an admitted request');
  }
  const n = limit.count;
  const windowS = limit.windowMs / 1000;
  const admitted = afterEdge.requests.filter((r) => isSuccess(r.status)).length;
  const waitedMs = Math.round(edge.by - firstRefusal.answered);
  const observed = `Retry-After ${seconds} s; capacity back within ${waitedMs} ms; then ${admitted} of ${afterEdge.requests.length} admitted at once`;
  if (admitted >= n / 2) {
    // A clock-aligned window's edge is a multiple of the window since the epoch; an anchored one a window after our
    // first request of the bucket.
    const aligned = Math.floor(edge.by / limit.windowMs) * limit.windowMs > edge.after;
    const first = result.spend.requests[0]!;
    const anchored = first.sent + limit.windowMs < edge.by && first.answered + limit.windowMs > edge.after;
    const kind =
      aligned && !anchored
        ? 'clock-aligned fixed window'
        : anchored && !aligned
          ? 'fixed window anchored at the first request'
          : 'fixed window (anchored or clock-aligned: not told apart in this run)';
    return info(`${kind}: ${observed}; a client can get up to ${2 * n} requests across a window edge`);
  }
  if (seconds <= Math.ceil(windowS / n) + 1 && waitedMs < limit.windowMs / 2) {
    return info(
      `token bucket / GCRA: ${observed}; capacity returns one request per ${(windowS / n).toFixed(2)} s, so a burst at an edge gets about ${n + 1}`,
    );
  }
  return info(
    `sliding log (or sliding window counter): ${observed}; no more than ${n} requests in any ${windowS} s, at an edge too`,
  );
};

export const limiterChecks = (): CheckDefinition[] => [
  {
    id: 'LIMITER-ALGORITHM',
    title: 'Which kind of rate limiter the target runs, and the burst it allows at a window edge',
    clause: '§8 rule 2',
    quote: 'A request over the limit receives HTTP 429 with the `Retry-After` header (integer seconds).',
    tags: ['limits', 'limiter'],
    lane: BUCKET,
    required: false,
    // It sends nothing of its own: it reads the Observability probe.
    plan: () => [],
    run: classify,
  },
];
