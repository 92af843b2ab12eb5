// SPEC.md §8 rule 1: who shares a limit. Graded from the requests a bucket's probe sends right after a fresh burst
// was refused (see sharing-rules.ts), plus one check that spending one bucket leaves another alone.

import type { Exchange } from '../src/client/index.ts';
import { isSuccess } from '../src/client/index.ts';
import { clock } from '../src/runner/bucket-log.ts';
import type { CheckContext } from '../src/runner/context.ts';
import { fail, inconclusive, skip, skipByChoice } from '../src/runner/grades.ts';
import {
  admittedAfterRefusal,
  admittedInSpan,
  allRefused,
  refusedBelowLimit,
  relativeTo,
} from '../src/runner/limit-bounds.ts';
import { limitTimeline } from '../src/runner/limit-timeline.ts';
import type { Target } from '../src/runner/target.ts';
import type { CheckDefinition } from '../src/runner/types.ts';
import { cite, type EndpointKey, LIMIT_RULES } from '../src/spec/index.ts';
import {
  authorised,
  bucketView,
  probe,
  probePlan,
  probeRequests,
  recordRequests,
  timesOf,
} from './bucket-probe.ts';
import { SHARING_RULES, type SharingRule } from './sharing-rules.ts';

const graded =
  (rule: SharingRule) =>
  async (ctx: CheckContext): Promise<string> => {
    const plan = probePlan(ctx.target, rule.bucket);
    const result = await probe(ctx, rule.bucket);
    const found = result.variants.get(rule.variant);
    if (found === undefined) {
      // Either the variant could not be formed (this says why) or the bucket was never spent.
      await (
        plan.variants.find((v) => v.name === rule.variant) ??
        skipByChoice(`the profile has no clients.${rule.client}`)
      ).options(ctx.session);
      return skip(`the ${rule.bucket} bucket was never spent, so sharing cannot be judged`);
    }
    const at = timesOf(result);
    const { log } = ctx.session;
    for (const request of found.requests) if (request.exchange) authorised(request.exchange);
    recordRequests(ctx, found.requests.slice(0, 3));
    // Were the variant's requests a limit of their own, a refusal among them would need a limit's worth of them.
    const ownView = found.variant.own(found.options, ctx.session);
    const ownLog = log.view(rule.bucket, ownView);
    const refusedAlone = refusedBelowLimit(
      ownLog,
      result.limit,
      log.view(rule.bucket, ownView, found.requests),
    );
    const admitted = found.requests.filter((r) => isSuccess(r.status)).length;
    // "Spent" by this tenant's own traffic only if some of it was admitted: a blocked tenant spends nothing.
    const blocked = allRefused(bucketView(ctx, rule.bucket, result));
    if (blocked !== undefined) return inconclusive(`the ${rule.bucket} bucket: ${blocked}`);
    if (!rule.shares) {
      if (refusedAlone !== undefined) {
        ctx.timeline = limitTimeline(ownLog, result.limit, result.origin, refusedAlone);
        return fail(`${rule.variant} shares this tenant's limit: ${refusedAlone.explain(at)}`);
      }
      if (admitted > 0)
        return `with the ${rule.bucket} limit spent, ${rule.variant} got ${found.requests[0]!.status}`;
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
      ctx.timeline = limitTimeline(shared, result.limit, result.origin, apart);
      return fail(`${rule.variant} draws from a limit of its own: counted together, ${apart.explain(at)}`);
    }
    return inconclusive(
      `with the ${rule.bucket} limit spent, ${admitted} of ${found.requests.length} requests of ${rule.variant} were admitted: too few to prove a limit of its own, refused too late to prove sharing`,
    );
  };

export const sharingChecks = (): CheckDefinition[] =>
  SHARING_RULES.map(
    (rule): CheckDefinition => ({
      id: rule.id,
      failsWith: ['FAIL'],
      title: rule.title,
      ...cite(LIMIT_RULES.perTenant),
      tags: ['limits', 'sharing', rule.bucket],
      lane: rule.bucket,
      required: true,
      plan: (target) => probeRequests(target, rule.bucket),
      run: graded(rule),
    }),
  );

/**
 * Runs before the probes, after the bearer checks: both its buckets have room then (after their probes they would
 * have none for a window), and the bucket it spends on purpose is one its probe would spend anyway.
 */
export const independenceCheck = (): CheckDefinition =>
  ({
    id: 'LIMIT-BUCKETS-INDEPENDENT',
    failsWith: ['FAIL'],
    title: 'Spending the limit of one endpoint does not limit another',
    ...cite(LIMIT_RULES.perTenant),
    tags: ['limits', 'sharing'],
    lane: 'before',
    required: true,
    plan: (target) => {
      const [spent, other] = independencePair(target) ?? [];
      if (spent === undefined || other === undefined) return [];
      return [
        {
          key: 'independence:spend',
          endpoint: spent,
          requests: target.limitOf(target.endpoint(spent).bucket).count + 1,
          margin: 0,
        },
        // Before the spend, after it, and once again should that be refused.
        { key: 'independence:other', endpoint: other, requests: 3, margin: 0 },
      ];
    },
    run: async (ctx) => {
      const pair =
        independencePair(ctx.target) ?? skipByChoice('the profile lets harness call fewer than two buckets');
      const [spent, other] = pair.map((key) => ctx.target.endpoint(key));
      const otherLimit = ctx.target.limitOf(other!.bucket);
      const tenant = ctx.target.profile.tenant;
      // Room in the other bucket first (held until its answer), so a refusal there cannot be its own traffic's doing.
      return ctx.withRoom(other!, 3, async () => {
        const origin = clock();
        // A refusal right before spending is the other bucket's own doing (a limit lower than stated, outside
        // traffic): one after it would prove nothing about the spent one.
        const before = await ctx.call(other!);
        if (before.status === 429) {
          return inconclusive(
            `${other!.key} got 429 before ${spent!.key} was spent: its own limit refuses it, so nothing can be compared`,
          );
        }
        const count = ctx.target.limitOf(spent!.bucket).count;
        let last = await ctx.session.call(spent!);
        for (let i = 0; i < count && last.status !== 429; i++) last = await ctx.session.call(spent!);
        ctx.record(last);
        if (last.status !== 429) {
          return skip(
            `${spent!.key} answered ${last.status}, not 429, after ${count + 1} requests: nothing to compare with`,
          );
        }
        const answer = await ctx.call(other!);
        if (answer.status !== 429) return `with ${spent!.key} spent, ${other!.key} got ${answer.status}`;
        const aloneOf = (exchange: Exchange) => {
          const view = ctx.session.log.view(other!.bucket, { tenant });
          return refusedBelowLimit(
            view,
            otherLimit,
            view.filter((o) => o.request.exchange === exchange),
          );
        };
        const first = aloneOf(answer);
        const ownTraffic = `with ${spent!.key} spent, ${other!.key} got 429, but its own recent traffic could explain it`;
        if (first === undefined) return inconclusive(ownTraffic);
        // One refusal can be a passing one (a restart, a blip): the spent bucket stays spent for its whole window, so
        // asking again a moment later, well within it, must be refused again if spending it is what refuses.
        await ctx.wait(
          ctx.target.limitOf(spent!.bucket).windowMs / 20,
          `to ask ${other!.key} again while ${spent!.key} stays spent`,
        );
        const again = await ctx.call(other!);
        if (again.status !== 429) {
          return inconclusive(
            `with ${spent!.key} spent, ${other!.key} got 429 once, then ${again.status}: one refusal is no proof`,
          );
        }
        const second = aloneOf(again);
        if (second === undefined) return inconclusive(`${ownTraffic} the second time`);
        const at = relativeTo(origin);
        ctx.timeline = limitTimeline(
          ctx.session.log.view(other!.bucket, { tenant }),
          otherLimit,
          origin,
          second,
        );
        return fail(
          `with ${spent!.key} spent, ${other!.key} got 429 twice in a row: ${first.explain(at)}; then ${second.explain(at)}`,
        );
      });
    },
  }) satisfies CheckDefinition;

/** The callable bucket with the smallest limit (cheapest to spend) and one with room left after its own probe. */
export const independencePair = (target: Target): [EndpointKey, EndpointKey] | undefined => {
  const callable = target.endpoints.filter((e) => target.mayCall(e) && e.pathIds.length === 0);
  const byLimit = [...callable].sort(
    (a, b) => target.limitOf(a.bucket).count - target.limitOf(b.bucket).count,
  );
  const spent = byLimit.find((e) => target.limitOf(e.bucket).per === 'minute');
  const other = byLimit
    .reverse()
    .find((e) => e.bucket !== spent?.bucket && target.limitOf(e.bucket).per === 'minute');
  return spent && other ? [spent.key, other.key] : undefined;
};
