// SPEC.md §8 rule 1: who shares a limit. Graded from the requests a bucket's probe sends right after a fresh burst
// was refused (see sharing-rules.ts); independence.ts checks that spending one bucket leaves another alone.

import {
  admittedAfterRefusal,
  admittedBeyondShared,
  admittedInSpan,
  allRefused,
  type CheckContext,
  type CheckSpec,
  fail,
  inconclusive,
  isSuccess,
  type LoggedRequest,
  type ProbeResult,
  refusedBelowLimit,
  skip,
} from '../src/runner/checks.ts';
import { cite, LIMIT_RULES } from '../src/spec/index.ts';
import {
  authorised,
  bucketView,
  probe,
  probePlan,
  probeRequests,
  recordRequests,
  showProof,
  timesOf,
} from './bucket-probe.ts';
import { SHARING_RULES, type SharingRule, sharingUnmetBy } from './sharing-rules.ts';

const graded =
  (rule: SharingRule) =>
  async (ctx: CheckContext): Promise<string> => {
    const plan = probePlan(ctx.target, rule.bucket);
    const result = await probe(ctx, rule.bucket);
    const found = result.variants.get(rule.variant);
    if (found === undefined) {
      // Either the variant could not be formed (this says why) or the bucket was never spent. It is in the plan:
      // the client it needs is (see needsClient below).
      await plan.variants.find((v) => v.name === rule.variant)!.options(ctx);
      return skip(`the ${rule.bucket} bucket was never spent, so sharing cannot be judged`);
    }
    const at = timesOf(result);
    for (const request of found.requests) if (request.exchange) authorised(request.exchange);
    recordRequests(ctx, found.requests.slice(0, 3));
    // Were the variant's requests a limit of their own, a refusal among them would need a limit's worth of them.
    const ownView = found.variant.own(found.options, ctx);
    const ownLog = ctx.bucketView(rule.bucket, ownView);
    const refusedAlone = refusedBelowLimit(
      ownLog,
      result.limit,
      ctx.bucketView(rule.bucket, ownView, found.requests),
    );
    const admitted = found.requests.filter((r) => isSuccess(r.status)).length;
    // "Spent" by this tenant's own traffic only if some of it was admitted: a blocked tenant spends nothing.
    const blocked = allRefused(bucketView(ctx, rule.bucket, result));
    if (blocked !== undefined) return inconclusive(`the ${rule.bucket} bucket: ${blocked}`);
    if (!rule.shares) {
      if (refusedAlone !== undefined) {
        return fail(
          `${rule.variant} shares this tenant's limit: ${refusedAlone.explain(at)}`,
          showProof(ctx, ownLog, result.limit, result.origin, refusedAlone),
        );
      }
      if (admitted > 0) return isolated(ctx, rule, result, found.requests);
      const status = found.requests[0]!.status ?? 'no answer';
      if (status !== 429) {
        return inconclusive(
          `with the ${rule.bucket} limit spent, ${rule.variant} got ${status}: neither admitted nor refused for the limit, so whether this tenant's traffic limits it cannot be told`,
        );
      }
      return inconclusive(`${rule.variant} got 429, but not so soon that its own limit could not explain it`);
    }
    if (refusedAlone !== undefined)
      return `with the ${rule.bucket} limit spent, ${rule.variant} got 429: it shares the limit (${refusedAlone.explain(at)})`;
    // Were the variant sharing the bucket, its admits and the bucket's own together obey the bounds.
    const shared = bucketView(ctx, rule.bucket, result);
    const without = shared.filter((o) => !found.requests.includes(o.request));
    const proof = (view: typeof shared) =>
      admittedAfterRefusal(view, result.limit) ??
      result.fresh.map((b) => admittedInSpan(view, result.limit, b.edgeFree)).find((p) => p !== undefined);
    if (proof(without) !== undefined) {
      return inconclusive(
        `the ${rule.bucket} bucket admits more than its limit even without ${rule.variant} (see the LIMIT-ENFORCED check)`,
      );
    }
    const apart = proof(shared);
    if (apart !== undefined) {
      return fail(
        `${rule.variant} draws from a limit of its own: counted together, ${apart.explain(at)}`,
        showProof(ctx, shared, result.limit, result.origin, apart),
      );
    }
    return inconclusive(
      `with the ${rule.bucket} limit spent, ${admitted} of ${found.requests.length} requests of ${rule.variant} were admitted: too few to prove a limit of its own, refused too late to prove sharing`,
    );
  };

/**
 * "Limits are per tenant": the other tenant's requests, sent at once right after this tenant was refused, were
 * admitted beyond what one limit shared by both could have admitted by then. Fewer prove nothing (a token bucket
 * refills a few), so the PASS is withheld: not verified, with the arithmetic.
 */
const isolated = (
  ctx: CheckContext,
  rule: SharingRule,
  result: ProbeResult,
  theirs: readonly LoggedRequest[],
): string => {
  const at = timesOf(result);
  const shown = admittedBeyondShared(bucketView(ctx, rule.bucket, result), theirs, result.limit);
  if (shown === undefined) {
    const admitted = theirs.filter((r) => isSuccess(r.status)).length;
    return inconclusive(
      `not verified: with the ${rule.bucket} limit spent, ${admitted} of ${theirs.length} requests of ${rule.variant} were admitted, no more than one limit shared with this tenant could have refilled for them since its last 429`,
    );
  }
  return `with the ${rule.bucket} limit spent, ${rule.variant} has a limit of its own: ${shown.explain(at)}`;
};

export const sharingChecks = (): CheckSpec[] =>
  SHARING_RULES.map(
    (rule): CheckSpec => ({
      id: rule.id,
      failsWith: ['FAIL'],
      title: rule.title,
      ...cite(LIMIT_RULES.perTenant),
      tags: ['limits', 'sharing', rule.tag, rule.bucket],
      lane: rule.bucket,
      required: true,
      plan: (target) => probeRequests(target, rule.bucket),
      requires: [{ unmetBy: (target) => sharingUnmetBy(rule, target) }],
      run: graded(rule),
    }),
  );
