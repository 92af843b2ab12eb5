// SPEC.md §8 rule 1: who shares a limit. Graded from the requests a bucket's probe sends right after a fresh burst
// was refused (see sharing-rules.ts); independence.ts checks that spending one bucket leaves another alone.

import {
  admittedAfterRefusal,
  admittedInSpan,
  allRefused,
  type CheckContext,
  type CheckSpec,
  fail,
  inconclusive,
  isSuccess,
  type LoggedRequest,
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
    const isAdmitted = (r: LoggedRequest) => isSuccess(r.status);
    const admitted = found.requests.filter(isAdmitted).length;
    // "Spent" by this tenant's own traffic only if some of it was admitted: a blocked tenant spends nothing.
    const blocked = allRefused(bucketView(ctx, rule.bucket, result));
    if (blocked !== undefined) return inconclusive(`the ${rule.bucket} bucket: ${blocked}`);
    if (!rule.shares && refusedAlone !== undefined) {
      // A limit set lower than stated refuses every tenant's first burst as soon: only one refused sooner than this
      // tenant's own first burst (the spend, spread over the bucket's endpoints as the variant's) is its traffic.
      const spent = result.spend.requests.filter(isAdmitted).length;
      if (refusedAlone.atMost >= spent) {
        return inconclusive(
          `${rule.variant} was refused with ${refusedAlone.atMost} of its own admitted in the window before (${refusedAlone.explain(at)}), but this tenant's own first burst was admitted no more (${spent}): a limit lower than stated, which LIMIT-ADMITS judges, explains it as well as a shared one`,
        );
      }
      return fail(
        `${rule.variant} shares this tenant's limit: ${refusedAlone.explain(at)}, fewer than this tenant's own first burst was (${spent})`,
        showProof(ctx, ownLog, result.limit, result.origin, refusedAlone),
      );
    }
    if (rule.shares && refusedAlone !== undefined)
      return `with the ${rule.bucket} limit spent, ${rule.variant} got 429: it shares the limit (${refusedAlone.explain(at)})`;
    // Were the variant sharing the bucket, its admits and the bucket's own together obey the bounds. Another
    // tenant's requests are counted as the tenant's own, as one limit shared by both would count them.
    const variantLog = ctx
      .bucketView(rule.bucket, ownView, found.requests)
      .map((o) => ({ ...o, ours: true }));
    const without = bucketView(ctx, rule.bucket, result).filter((o) => !found.requests.includes(o.request));
    const shared = [...without, ...variantLog];
    const proof = (view: typeof shared) =>
      admittedAfterRefusal(view, result.limit) ??
      result.fresh.map((b) => admittedInSpan(view, result.limit, b.edgeFree)).find((p) => p !== undefined);
    if (proof(without) !== undefined) {
      return inconclusive(
        `the ${rule.bucket} bucket admits more than its limit even without ${rule.variant} (see the LIMIT-ENFORCED check)`,
      );
    }
    const apart = proof(shared);
    if (apart !== undefined && !rule.shares)
      return `with the ${rule.bucket} limit spent, ${admitted} of ${found.requests.length} requests of ${rule.variant} were admitted: a limit of its own, as counted together ${apart.explain(at)}`;
    if (apart !== undefined) {
      return fail(
        `${rule.variant} draws from a limit of its own: counted together, ${apart.explain(at)}`,
        showProof(ctx, shared, result.limit, result.origin, apart),
      );
    }
    if (!rule.shares && admitted === 0) {
      const status = found.requests[0]!.status ?? 'no answer';
      return inconclusive(
        status === 429
          ? `${rule.variant} got 429, but not so soon that its own limit could not explain it`
          : `with the ${rule.bucket} limit spent, ${rule.variant} got ${status}: neither admitted nor refused for the limit, so whether this tenant's traffic limits it cannot be told`,
      );
    }
    if (!rule.shares) {
      console.error(
        rule.bucket,
        JSON.stringify(
          result.fresh.map((b) => ({
            name: b.name,
            ef: b.edgeFree && [at(b.edgeFree.from), at(b.edgeFree.until)],
            sent: [
              at(Math.min(...b.requests.map((r) => r.sent))),
              at(Math.max(...b.requests.map((r) => r.answered))),
            ],
            adm: b.requests.filter((r) => isSuccess(r.status)).length,
          })),
        ),
        'variant',
        at(Math.min(...found.requests.map((r) => r.sent))),
        at(Math.max(...found.requests.map((r) => r.answered))),
        'edge',
        result.edge && [at(result.edge.after), at(result.edge.by)],
      );
      return inconclusive(
        `with the ${rule.bucket} limit spent, ${admitted} of ${found.requests.length} requests of ${rule.variant} were admitted, but not so soon after a refusal of this tenant's that one limit shared by both could not have admitted them (a token bucket refills; a loaded runner answers late), and none was refused below its own limit`,
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
