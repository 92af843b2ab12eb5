// One measurement per bucket, shared by every limit check of that bucket (SPEC.md §8). It collects what the bounds
// of limit-bounds.ts need to decide, whatever kind of limiter the target runs and wherever its window began, and it
// takes no property of the limiter on trust: a window's length shows only between two edges, and a Retry-After only
// where it is tested (probe-steps.ts has each step):
//   1. spend: once no request of ours to the bucket is under way, a limit's worth plus one at once (and twice the
//      limit if nothing was refused, to prove a missing limit);
//   2. edge: from the first 429, while its Retry-After is waited out, a request in each sixth of the window and one
//      where each 429 says capacity returns; then requests spaced out around that Retry-After until one is admitted:
//      a fixed window begins there. One admitted before the Retry-After's whole seconds (a limiter that reset
//      early) is followed by two bursts that show two windows within one;
//   3. fresh: once the spend burst's answers are a window old, and where a fixed window has no edge (from 2.), a
//      limit's worth plus two, and up to eight more, at once to one endpoint (freshBurstSize): every faithful
//      limiter admits the first N; repeated when it was refused below the limit;
//   4. variants: right after that burst is refused, the requests whose sharing SPEC.md §8 rule 1 decides; one that
//      must share, admitted past the stretch step 3 found free of a window edge, is sent again after another burst;
//   5. window end: a limit's worth plus one answered just before a window has passed since the last refusal before
//      the edge: a window shorter than stated opens another by then. It goes after step 4, or before step 3 where
//      the edge came so soon after the spend (a token bucket) that steps 3 and 4 would leave it too late;
//   5b. room back: one request once the fresh burst's admits (or the window-end fill's) are a window old, where every
//      faithful limiter has room again: refused there, and at once again, a window longer than stated still held
//      them (twice in a row); then, where it ends within half a window, a limit's worth at its next edge shows the
//      length in the Retry-After;
//   6. retry test: where no Retry-After was yet seen short, one more 429, waited out when it is short; before step 5
//      when that wait ends before it, else after it; then, until step 5, spent polls at points the run's seed draws
//      (one in each twenty-fourth of a window), a limit's worth at once after one admitted;
//   7. window end again: where step 5's answers came too late to show the length, a limit's worth, the edge after
//      it as in step 2 (polled from its first 429's answer, the rest still under way) and another window-end burst,
//      up to twice; a length never shown is not verified.
// Nothing here needs the bucket quiet to be sound: the bounds count every request logged, so earlier traffic only
// makes a burst less decisive. The probe judges nothing; checks grade these observations.
import { mostAdmittedInSpan } from '../../../core/faithful-bounds.ts';
import { isSuccess } from '../../client/index.ts';
import { isHarnessError } from '../../errors.ts';
import type { LoggedRequest } from '../bucket-log.ts';
import { type CheckContext, sessionOf } from '../context.ts';
import { GradedEnd, skip, skipByChoice } from '../grades.ts';
import { noTokenReason } from '../session.ts';
import { admittedInSpan, type EdgeFree, refusedBelowLimit } from './limit-bounds.ts';
import { nextEdge } from './probe-edge.ts';
import {
  type ProbePlan,
  type ProbeResult,
  retryAfterSeconds,
  type Variant,
  type VariantResult,
  widthOf,
} from './probe-result.ts';
import { BucketProbe } from './probe-steps.ts';
import {
  filledWindowEnd,
  leadFor,
  roomBackThenNextWindow,
  spentPolls,
  windowEndsShown,
} from './window-end.ts';

const firstAnswered = (requests: readonly LoggedRequest[], match: (r: LoggedRequest) => boolean) =>
  [...requests].filter(match).sort((a, b) => a.answered - b.answered)[0];

/** The sharing variants whose first request was admitted and answered after `stretch` ended. */
const lateVariants = (variants: ReadonlyMap<string, VariantResult>, stretch: EdgeFree | undefined) =>
  new Set(
    [...variants.values()]
      .filter(({ variant, requests: [first] }) => {
        if (stretch === undefined || !variant.shares || first === undefined) return false;
        return isSuccess(first.status) && first.answered > stretch.until;
      })
      .map(({ variant }) => variant.name),
  );

const run = async (ctx: CheckContext, plan: ProbePlan): Promise<ProbeResult> => {
  const probe = new BucketProbe(ctx, plan);
  const { limit } = probe;
  const variantOptions = await Promise.all(
    plan.variants.map((v) =>
      v.options(ctx).catch((error: unknown) => {
        // A variant the target cannot form (no id, no token, no answer) is left out, and its check says why; a
        // bug of harness is no reason to leave it out.
        if (
          error instanceof GradedEnd ||
          isHarnessError(error, 'HARNESS_TARGET') ||
          isHarnessError(error, 'HARNESS_TOKEN')
        )
          return undefined;
        throw error;
      }),
    ),
  );
  // No wait for quiet: the bounds count whatever came before, and the fresh burst below is the one that must be.
  await probe.settled();
  let spend = await probe.burst('spend', limit.count + 1);
  const origin = Math.min(...spend.requests.map((r) => r.sent));
  // The widest single burst, not the span of them all: it says how far ahead of a moment a burst must go to be
  // answered by then, and two bursts' span sent the window end so early that a short window had not yet ended.
  let width = widthOf(spend.requests);
  // Nothing refused yet: more than twice the limit at once, so a missing limit shows as more than any faithful
  // limiter admits in the stretch; once more when the first of them still had connections to open.
  for (const name of ['spend, twice the limit', 'spend, twice the limit on open connections']) {
    if (spend.requests.some((r) => r.status === 429)) break;
    if (admittedInSpan(probe.view(), limit) !== undefined) break;
    const more = await probe.burst(name, mostAdmittedInSpan(limit, 0) + 1);
    width = Math.max(width, widthOf(more.requests));
    const requests = [...spend.requests, ...more.requests];
    const onceMore = spend.onceMore ?? more.onceMore;
    spend = {
      ...spend,
      requests,
      refusedBelowLimit: spend.refusedBelowLimit || more.refusedBelowLimit,
      ...(onceMore ? { onceMore } : {}),
    };
  }
  const firstRefusal = firstAnswered(spend.requests, (r) => r.status === 429);
  const base = { limit, tenant: probe.tenant, origin, spend, firstByEndpoint: probe.firstByEndpoint };
  if (firstRefusal === undefined) {
    const none = { polls: [], fresh: [], variants: new Map(), windowEndTries: 0, roomBacks: [] };
    return { ...base, ...none, unauthorised: probe.unauthorised };
  }

  const seconds = firstRefusal.exchange && retryAfterSeconds(firstRefusal.exchange);
  const { polls, edge, windowEndAfter } = await nextEdge(probe, firstRefusal);
  // The window-end burst must be answered within a window of that refusal, and the fresh burst must wait until
  // the bursts before it are a window old. Where the edge came soon after the spend burst (a token bucket, a fixed
  // window that was nearly over), the fresh burst and the variants would end too late, and the window end goes
  // first; otherwise after them, so the probe takes about two windows either way.
  const firstAt = windowEndAfter && probe.windowEndAt(windowEndAfter, width);
  const windowEndFirst =
    firstAt !== undefined && firstAt < probe.quietAt(polls) + width * (3 + plan.variants.length);
  const windowEnd = windowEndFirst
    ? await filledWindowEnd(probe, windowEndAfter!, spend.requests)
    : undefined;
  const variants = new Map<string, VariantResult>();
  // Side by side: sent one after another, the last of them went so late behind far round trips that a window edge
  // came before it, and its result showed nothing.
  const sendVariants = async (only: (v: Variant) => boolean) => {
    const sent = await Promise.all(
      plan.variants.map((variant, i) => {
        const options = variantOptions[i];
        // A variant whose options could not be had (no second id) is left out; its check says why.
        return options === undefined || !only(variant) ? undefined : probe.variant(variant, options);
      }),
    );
    for (const result of sent) {
      if (result === undefined) continue;
      const before = variants.get(result.variant.name)?.requests ?? [];
      variants.set(result.variant.name, { ...result, requests: [...before, ...result.requests] });
    }
  };
  // Another tenant's requests go once the fresh burst, having drawn a 429, is answered (OnRefused), their tokens
  // fetched before.
  let apart: Promise<void> | undefined;
  const sendApart = () => {
    apart ??= sendVariants((v) => !v.shares);
    return apart;
  };
  const clients = variantOptions.flatMap((options) => (options?.client ? [options.client] : []));
  const fresh = [
    await probe.fresh('fresh', edge, width, polls, {
      ready: () => Promise.all(clients.map((client) => ctx.token(client))).catch(() => undefined),
      send: () => void sendApart(),
    }),
  ];
  // Still nothing refused (a limit set too high): more at once, past what a stretch may admit without an edge.
  const overflow = fresh[0]!.requests.some((r) => r.status === 429)
    ? []
    : (await probe.burst('fresh, more', limit.count + 1)).requests;
  // Right after the fresh burst is refused, inside the stretch it found free of a fixed window's edge: a variant that
  // shares the bucket must be refused, and one with a limit of its own shows as more than one window admits.
  if ([...fresh[0]!.requests, ...overflow].some((r) => r.status === 429)) {
    // Side by side with the other tenant's, still under way: theirs draw on another tenant's limit, and a variant of
    // this tenant's sent a round trip later may meet an aligned window's edge.
    await Promise.all([sendApart(), sendVariants((v) => v.shares)]);
  }
  // Refused below the limit in the fresh burst but not before (in the spend burst or a poll): repeated, so two in
  // a row decide, and nothing is sent between them to share their windows.
  const pollRefusedBelow = refusedBelowLimit(probe.view(), limit, probe.view(polls)) !== undefined;
  const again = fresh[0]!.refusedBelowLimit && !spend.refusedBelowLimit && !pollRefusedBelow;
  if (again) fresh.push(await probe.fresh('fresh, again', edge, width, polls));
  // After the fresh burst, so it never shares the window a refusal below the limit is judged in. Where the fresh
  // burst ends too late for it, it goes at once and LIMIT-ENFORCED says the length was not verified.
  const lastAt =
    windowEndAfter === undefined || windowEndFirst || again
      ? undefined
      : probe.windowEndAt(windowEndAfter, leadFor(probe, windowEndAfter, fresh[0]!.requests));
  // While the window end is awaited, where its wait fits: after it, a 429's Retry-After is the short rest of a
  // window, and waiting it out would add that much to every run.
  await probe.retryTest(lastAt);
  if (lastAt !== undefined) await spentPolls(probe, lastAt);
  const lastBurst = lastAt === undefined ? windowEnd : await probe.windowEnd(lastAt);
  if (lastAt !== undefined) await roomBackThenNextWindow(probe);
  // A variant that must share the bucket, admitted after the stretch the fresh burst found free of a fixed window's
  // edge (a loaded runner sent it late), may have met that edge: once more, after another fresh burst.
  const late = lateVariants(variants, fresh[0]!.edgeFree);
  if (late.size > 0 && !again) {
    const retried = await probe.fresh('fresh, for the variants', edge, width, polls);
    fresh.push(retried);
    if (retried.requests.some((r) => r.status === 429)) await sendVariants((v) => late.has(v.name));
  }
  await probe.retryTest();
  const shared = new Set([...variants.values()].flatMap((v) => v.requests));
  const first = lastBurst && windowEndAfter ? { windowEndAfter, windowEnd: lastBurst } : undefined;
  // No edge seen after the spend burst (a tenant kept shut): another try would wait as long for nothing.
  const ends =
    windowEndAfter === undefined
      ? { windowEndTries: 0 }
      : await windowEndsShown(probe, first, (r) => !shared.has(r));
  return {
    ...base,
    ...ends,
    firstRefusal,
    polls,
    ...(edge ? { edge } : {}),
    ...(seconds === undefined ? {} : { retryAfterSeconds: seconds }),
    fresh,
    variants,
    roomBacks: probe.roomBacks,
    unauthorised: probe.unauthorised,
  };
};

export const probeBucket = (ctx: CheckContext, plan: ProbePlan): Promise<ProbeResult> =>
  sessionOf(ctx).once(`probe:${plan.bucket}`, async () => {
    try {
      for (const endpoint of plan.endpoints) {
        if (!sessionOf(ctx).target.mayCall(endpoint))
          skipByChoice(`side_effects forbids calling ${endpoint.key}`);
      }
      return await sessionOf(ctx).holding(plan.bucket, () => run(ctx, plan));
    } catch (error) {
      if (isHarnessError(error, 'HARNESS_TOKEN')) skip(noTokenReason(error));
      throw error;
    } finally {
      for (const endpoint of plan.endpoints) sessionOf(ctx).probeDone(endpoint.key);
    }
  });
