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
      // More admitted than one limit shared by both allows is a limit of their own, whatever refused the rest (a
      // limit of theirs lower than stated is LIMIT-ADMITS's to find, not this check's).
      const apart = admittedBeyondShared(bucketView(ctx, rule.bucket, result), found.requests, result.limit);
      if (apart !== undefined)
        return `with the ${rule.bucket} limit spent, ${rule.variant} has a limit of its own: ${apart.explain(at)}`;
      // A limit of their own, even one half SPEC.md's, admits at least this many of them: fewer, with a refusal no
      // limit of N of their own explains, is the shared limit's doing. More, it may be a low limit of theirs.
      const ownAdmits = Math.min(found.requests.length, Math.ceil(result.limit.count / 2));
      if (refusedAlone !== undefined && admitted < ownAdmits) {
        return fail(
          `${rule.variant} shares this tenant's limit: ${admitted} of its ${found.requests.length} requests were admitted, fewer than a limit of its own half SPEC.md's would admit, and ${refusedAlone.explain(at)}`,
          showProof(ctx, ownLog, result.limit, result.origin, refusedAlone),
        );
      }
      if (admitted > 0) {
        return inconclusive(
          `not verified: with the ${rule.bucket} limit spent, ${admitted} of ${found.requests.length} requests of ${rule.variant} were admitted, no more than one limit shared with this tenant could have refilled for them since its last 429`,
        );
      }
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
