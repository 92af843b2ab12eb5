// Beyond SPEC.md: which kind of limiter the target runs, told from outside (see FACTS: "Telling limiters apart"),
// and the burst a client can get across a window edge. Recorded as INFO; SPEC.md §8 does not prescribe a kind.
import type { CheckContext } from '../src/conformance/context.ts';
import { info, skip } from '../src/conformance/grades.ts';
import { isLimited, retryAfterSeconds } from '../src/conformance/probe.ts';
import type { CheckDefinition } from '../src/conformance/types.ts';
import type { BucketId } from '../src/spec/index.ts';
import { probe } from './limits.ts';

/** The Observability bucket: never side-effecting and large enough for a burst to say something. */
const BUCKET: BucketId = 'observability';

const startMs = (iso: string): number => Date.parse(iso);

const classify = async (ctx: CheckContext): Promise<string> => {
  if (ctx.target.endpointsIn(BUCKET).length === 0)
    return skip('the profile lists no Observability endpoints');
  const result = await probe(ctx, BUCKET);
  const { over, retry, limit } = result;
  if (over === undefined || !isLimited(over) || retry === undefined || isLimited(retry)) {
    return skip(
      'the probe did not see a 429 followed by an admitted retry, so there is nothing to tell apart',
    );
  }
  const retryAfter = retryAfterSeconds(over)!;
  // Right after capacity came back: a fixed window gives the rest of a whole window, others give little.
  let admitted = 0;
  for (let i = 0; i < limit.count; i++) {
    const exchange = await ctx.session.call(
      ctx.target.endpointsIn(BUCKET)[i % ctx.target.endpointsIn(BUCKET).length]!,
    );
    if (isLimited(exchange)) {
      ctx.record(exchange);
      break;
    }
    admitted += 1;
  }
  const windowS = limit.windowMs / 1000;
  const overAt = startMs(over.evidence.startedAt);
  const anchoredPrediction = Math.ceil(
    (limit.windowMs - (overAt - startMs(result.opener.evidence.startedAt))) / 1000,
  );
  const alignedPrediction = Math.ceil((limit.windowMs - (overAt % limit.windowMs)) / 1000);
  const observed = `Retry-After ${retryAfter} s; after it, ${admitted + 1} of ${limit.count} admitted at once`;

  if (admitted + 1 >= limit.count - 1) {
    const anchored = Math.abs(retryAfter - anchoredPrediction) <= 1;
    const aligned = Math.abs(retryAfter - alignedPrediction) <= 1;
    const kind =
      anchored && !aligned
        ? 'fixed window anchored at the first request'
        : aligned && !anchored
          ? 'clock-aligned fixed window'
          : 'fixed window (anchored or clock-aligned: not told apart in this run)';
    return info(
      `${kind}: ${observed}; a client can get up to ${2 * limit.count} requests across a window edge`,
    );
  }
  if (admitted <= 1 && retryAfter <= Math.ceil(windowS / limit.count) + 1) {
    return info(
      `token bucket / GCRA: ${observed}; capacity returns one request per ${(windowS / limit.count).toFixed(2)} s, so a burst at an edge gets about ${limit.count + 1}`,
    );
  }
  if (admitted <= 1) {
    return info(
      `sliding log: ${observed}; no more than ${limit.count} requests in any ${windowS} s, at an edge too`,
    );
  }
  return info(`partial refill (sliding window counter or similar): ${observed}`);
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
    plan: (target) => {
      const endpoints = target.endpointsIn(BUCKET);
      const share = Math.ceil(target.limitOf(BUCKET).count / Math.max(1, endpoints.length));
      return endpoints.map((e) => ({ key: `limiter:${e.key}`, endpoint: e.key, requests: share, margin: 0 }));
    },
    run: classify,
  },
];
