// SPEC.md §8 (Limits) and the 429 row of §7, checked for every bucket of the §8 table. The checks are generated from
// the spec data, one set per bucket, and all of a bucket's checks grade one shared probe (src/runner/probe/probe.ts)
// with the bounds every faithful limiter obeys (src/runner/probe/limit-bounds.ts): a FAIL holds whatever the
// network did, wherever the server's window began and whichever kind of limiter it runs.
import {
  admittedAfterRefusal,
  admittedInSpan,
  allRefused,
  type CheckContext,
  type CheckSpec,
  type Finding,
  fail,
  inconclusive,
  isAdmitted,
  isSuccess,
  mostAdmittedInSpan,
  mostAdmittedWithinWindow,
  type Observation,
  type ProbeResult,
  refusedBelowLimit,
  type Target,
  warn,
  widthOf,
} from '../src/runner/checks.ts';
import {
  BUCKETS,
  type BucketId,
  cite,
  endpointQuote,
  errorQuote,
  LIMIT_RULES,
  limitQuote,
} from '../src/spec/index.ts';
import {
  bucketTag,
  bucketView,
  probe,
  probeRequests,
  recordRequests,
  showProof,
  timesOf,
} from './bucket-probe.ts';
import { heldPattern } from './queueing.ts';
import { countedStatuses, otherRefusals } from './refusal-status.ts';
import { retryAfterHonoured, retryAfterWellFormed, roundedDownPossible } from './retry-after-checks.ts';
import { repeatEvidence } from './twice-in-a-row.ts';
import { windowLength } from './window-length.ts';

type Requests = ProbeResult['spend']['requests'];

const describeLimit = (result: ProbeResult): string =>
  `${result.limit.count} per ${result.limit.per} (${result.limit.windowMs} ms window)`;

/** The strongest over-limit proof in the log: after a refusal, in any stretch, or in a stretch a fresh burst synced. */
export const overLimitProof = (log: readonly Observation[], result: ProbeResult) =>
  admittedAfterRefusal(log, result.limit) ??
  result.fresh.map((b) => admittedInSpan(log, result.limit, b.edgeFree)).find((p) => p !== undefined) ??
  admittedInSpan(log, result.limit);

// "| <endpoint> | <n> requests / <unit> |": the whole limit must be usable within one window.
const admitsFullLimit = async (ctx: CheckContext, bucket: BucketId): Promise<string> => {
  const result = await probe(ctx, bucket);
  const at = timesOf(result);
  const log = bucketView(ctx, bucket, result);
  const view = (requests: Requests) => ctx.bucketView(bucket, { tenant: result.tenant }, requests);
  // In the order sent: the edge polls are graded like the bursts, so an over-refusing limiter is caught by them too;
  // polls that drew no 429 say nothing either way, so they break no run of refusals.
  const polls = { name: 'edge polls', requests: result.polls, onceMore: undefined };
  const pollsRefused = result.polls.some((r) => r.status === 429);
  const attempts = [result.spend, ...(pollsRefused ? [polls] : []), ...result.fresh];
  // A window's room-back requests (probe-steps.ts) come after other traffic of ours, so each pairs only with the
  // request sent at once after it, never with the attempt before it.
  const graded = [...attempts, ...result.roomBacks].map((burst) => ({
    burst,
    proof: refusedBelowLimit(log, result.limit, view(burst.requests)),
  }));
  const [previous, last] = [graded[attempts.length - 2]?.proof, graded[attempts.length - 1]?.proof];
  const blocked = allRefused(log);
  if (blocked !== undefined) return inconclusive(blocked);
  if (previous !== undefined && last !== undefined) {
    recordRequests(ctx, [previous.refused.request, last.refused.request]);
    const shown = showProof(ctx, log, result.limit, result.origin, last);
    const strongest = [previous, last].reduce((a, b) => (b.atMost < a.atMost ? b : a));
    return fail(
      `${strongest.atMost} admitted in the ${result.limit.windowMs} ms before the refusal of '${strongest.refused.label}' (SPEC.md: ${describeLimit(result)}), and refused below the limit twice in a row: ${previous.explain(at)}; then ${last.explain(at)}`,
      shown,
    );
  }
  const repeat = repeatEvidence(log, result, graded, view);
  if (repeat.twice !== undefined) {
    const { first, then, how } = repeat.twice;
    recordRequests(ctx, [first.refused.request, then.refused.request]);
    const shown = showProof(ctx, log, result.limit, result.origin, then);
    return fail(
      `${then.atMost} admitted in the ${result.limit.windowMs} ms before the refusal of '${then.refused.label}' (SPEC.md: ${describeLimit(result)}), and refused below the limit twice in a row: ${first.explain(at)}; then, ${how}, ${then.explain(at)}`,
      shown,
    );
  }
  // Refused below the limit once: outside traffic of the tenant (§8 rule 1) explains it as well as a low limit does,
  // unless the profile says there is none. Never a PASS: the limit was not shown admitted where it was refused.
  const once = graded.find((g) => g.proof !== undefined)?.proof;
  if (once !== undefined) {
    recordRequests(ctx, [once.refused.request]);
    const shown = showProof(ctx, log, result.limit, result.origin, once);
    if (ctx.target.profile.exclusive_tenant === true) {
      return fail(
        `${once.atMost} admitted in the ${result.limit.windowMs} ms before the refusal of '${once.refused.label}' (SPEC.md: ${describeLimit(result)}), and the profile says no other traffic uses the tenant (exclusive_tenant): ${once.explain(at)}`,
        shown,
      );
    }
    const after = repeat.admittedAfter;
    const since =
      after === undefined
        ? ''
        : `; '${after.label}', sent at once after it, was admitted, as where other traffic freed the room it held`;
    return inconclusive(
      `refused below the limit once, not twice in a row: ${once.explain(at)}${since}. Other traffic of the tenant may have held the limit then (§8 rule 1); running again cannot tell, while exclusive_tenant: true in the profile (no other traffic uses the tenant) decides it`,
      shown,
    );
  }
  const final = attempts.at(-1)!;
  const admitted = view(final.requests).filter(isAdmitted).length;
  if (admitted >= result.limit.count) {
    return `${result.limit.count} of ${result.limit.count} admitted in the '${final.name}' burst (${Math.round(widthOf(final.requests))} ms wide)`;
  }
  // The burst may share its window with an admitted edge poll: the whole limit within one window is what counts.
  const withinWindow = mostAdmittedWithinWindow(log, result.limit);
  if (withinWindow >= result.limit.count) {
    return `${withinWindow} of ours admitted within one ${result.limit.windowMs} ms window (${admitted} of them in the '${final.name}' burst)`;
  }
  if (final.requests.some((r) => r.status !== 429 && !isSuccess(r.status))) {
    return inconclusive(
      `only ${admitted} of ${result.limit.count} admitted in the '${final.name}' burst; its answers: ${countedStatuses(final.requests)} (only a success counts as admitted)`,
    );
  }
  return inconclusive(
    `only ${admitted} of ${result.limit.count} admitted in the '${final.name}' burst, but it was ${Math.round(widthOf(final.requests))} ms wide, too wide for a refusal to prove the limit low; a narrower burst (closer target, more connections) would decide`,
  );
};

// §8 rule 2: "A request over the limit receives HTTP 429 with the `Retry-After` header (integer seconds)."
const refusesOverLimit = async (ctx: CheckContext, bucket: BucketId): Promise<string> => {
  const result = await probe(ctx, bucket);
  const at = timesOf(result);
  // The sharing variants are the sharing checks' to judge: counted here, a limit of their own would read as ours.
  const variants = new Set([...result.variants.values()].flatMap((v) => v.requests));
  const log = bucketView(ctx, bucket, result).filter((o) => !variants.has(o.request));
  const proof = overLimitProof(log, result);
  if (proof !== undefined) {
    return fail(
      `more admitted than SPEC.md allows (${describeLimit(result)}): ${proof.explain(at)}`,
      showProof(ctx, log, result.limit, result.origin, proof),
    );
  }
  const refusal = result.firstRefusal;
  const other = otherRefusals(log, result.limit);
  if (other !== undefined)
    recordRequests(
      ctx,
      other.answers.slice(0, 2).map((o) => o.request),
    );
  const [firstOther] = other?.answers ?? [];
  const inPlace =
    other &&
    `${other.answers.length} answers past the limit came as ${countedStatuses(other.answers)}, ${other.withRetryAfter} of them with a Retry-After, among ${other.refusals} 429s to the same requests (first: '${firstOther!.label}', answered ${at(firstOther!.answered)})`;
  if (other?.limiters) {
    return fail(
      `${inPlace}: the limiter's refusals, not 429 as SPEC.md §8 rule 2 says ("A request over the limit receives HTTP 429")`,
    );
  }
  const named = inPlace
    ? `; but ${inPlace}: once and without a Retry-After, a backend's error or the limiter's refusal in another status (SPEC.md §8 rule 2)`
    : '';
  if (refusal !== undefined) {
    recordRequests(ctx, [refusal]);
    const enforced = `the requests past the limit got 429 (first: '${refusal.label}', answered ${at(refusal.answered)}), and no stretch admitted more than SPEC.md allows (${describeLimit(result)})`;
    const length = windowLength(result, log, at);
    if (!length.shown) return inconclusive(`${enforced}, but ${length.text}${named}`);
    return named ? warn(`${enforced}; ${length.text}${named}`) : `${enforced}; ${length.text}`;
  }
  const admitted = log.filter(isAdmitted).length;
  const others = result.spend.requests.filter((r) => r.status !== undefined && !isSuccess(r.status));
  if (admitted >= result.limit.count && others.length > 0) {
    recordRequests(ctx, [others[0]]);
    return fail(
      `no 429 at all: ${admitted} requests were admitted, and the others got ${countedStatuses(others)}, not 429 (SPEC.md §8 rule 2)`,
    );
  }
  const held = heldPattern(result);
  if (held !== undefined) return inconclusive(held);
  return inconclusive(
    `${result.spend.requests.length} requests in ${Math.round(widthOf(result.spend.requests))} ms drew no 429 (${countedStatuses(result.spend.requests)}), yet none of the bounds is exceeded: to prove a missing limit harness must have more than ${mostAdmittedInSpan(result.limit, 0)} admitted within one window; a narrower burst (closer target, more connections) would decide`,
  );
};

// §4: every endpoint in the table exists: with a valid token it answers neither 404 nor 405.
const routed = (ctx: CheckContext, bucket: BucketId, key: string) => async (): Promise<Finding> => {
  const result = await probe(ctx, bucket);
  const first = result.firstByEndpoint.get(key);
  if (first === undefined) return inconclusive(`${key} answered only 429 during the probe`);
  ctx.record(first);
  // Its proof is the endpoint's own first answer, shown by hand, not a replay of the bucket's probe.
  const byHand = { reproduce: 'by hand' } as const;
  if (first.status === 404 || first.status === 405)
    return fail(`${key} answered ${first.status} with a valid token`, byHand);
  // A 400 or 500 to a valid token may come from a gateway that answers everything so: no proof of a route.
  if (!isSuccess(first.status)) {
    return inconclusive(
      `${key} answered ${first.status} with a valid token: neither a success nor 404/405, so whether it is routed cannot be told`,
      byHand,
    );
  }
  return { message: `${key} answered ${first.status}`, ...byHand };
};

export const limitChecks = (target: Target): CheckSpec[] =>
  (Object.keys(BUCKETS) as BucketId[]).flatMap((bucket) => {
    const tag = bucketTag(bucket);
    const common = {
      failsWith: ['FAIL'] as const,
      tags: ['limits', bucket],
      lane: bucket,
      required: true,
      plan: (t: Target) => probeRequests(t, bucket),
    };
    // A lone answer of another status where a 429 belonged: WARN (see refusal-status.ts).
    const enforcedCommon = { ...common, failsWith: ['FAIL', 'WARN'] as const };
    const enforced: CheckSpec =
      bucket === 'observability'
        ? {
            ...enforcedCommon,
            id: 'LIMIT-OBSERVABILITY-SHARED',
            title:
              'The Observability endpoints share one limit: the request past it is refused, whichever it hits',
            ...cite(limitQuote(bucket)),
            run: (ctx) => refusesOverLimit(ctx, bucket),
          }
        : {
            ...enforcedCommon,
            id: `LIMIT-ENFORCED-${tag}`,
            title: `The request past the ${bucket} limit gets 429`,
            ...cite(LIMIT_RULES.overLimit),
            run: (ctx) => refusesOverLimit(ctx, bucket),
          };
    return [
      ...target.endpointsIn(bucket).map(
        (endpoint): CheckSpec => ({
          ...common,
          tags: ['endpoints', bucket],
          id: `ENDPOINT-${endpoint.key
            .replace(/[^A-Za-z0-9]+/g, '-')
            .replace(/-+$/, '')
            .toUpperCase()}`,
          title: `${endpoint.key} exists: with a valid token it answers neither 404 nor 405`,
          ...cite(endpointQuote(endpoint)),
          run: (ctx) => routed(ctx, bucket, endpoint.key)(),
        }),
      ),
      {
        ...common,
        id: `LIMIT-ADMITS-${tag}`,
        title: `The whole ${bucket} limit is admitted within one window`,
        ...cite(limitQuote(bucket)),
        run: (ctx) => admitsFullLimit(ctx, bucket),
      },
      enforced,
      {
        ...common,
        id: `LIMIT-RETRY-AFTER-${tag}`,
        // Malformed: FAIL (§8 rule 2); longer than the window, which SPEC.md does not bound: WARN.
        failsWith: ['FAIL', 'WARN'],
        title: `A 429 from ${bucket} carries Retry-After as integer seconds, no longer than the window`,
        ...cite(LIMIT_RULES.overLimit),
        run: (ctx) => retryAfterWellFormed(ctx, bucket),
      },
      {
        ...common,
        id: `LIMIT-RETRY-HONOURED-${tag}`,
        // Refused past more than a rounding: FAIL; a whole-seconds value rounded down: WARN, where one can be.
        failsWith: roundedDownPossible(target, bucket) ? ['FAIL', 'WARN'] : ['FAIL'],
        title: `After waiting Retry-After, ${bucket} admits a request again`,
        ...cite(errorQuote('rateLimited')),
        run: (ctx) => retryAfterHonoured(ctx, bucket),
      },
    ];
  });
