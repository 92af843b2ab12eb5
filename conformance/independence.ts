// SPEC.md §8 rule 1, "Limits are per tenant, per endpoint": spending the limit of one endpoint leaves another's alone.
import {
  type CheckContext,
  type CheckSpec,
  type Exchange,
  fail,
  inconclusive,
  needsProfile,
  refusedBelowLimit,
  relativeTo,
  skip,
  type Target,
} from '../src/runner/checks.ts';
import { cite, type EndpointKey, type EndpointSpec, LIMIT_RULES } from '../src/spec/index.ts';
import { showProof } from './bucket-probe.ts';

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

const pairOf = (target: Target): [EndpointSpec, EndpointSpec] => {
  const [spent, other] = independencePair(target)!;
  return [target.endpoint(spent), target.endpoint(other)];
};

/** How often the spent bucket is spent again where it had room again right after the other was admitted. */
const SPEND_TRIES = 3;

/** Sends `spent` until it answers 429, a limit and one more at most: SKIP when it never does. */
const spend = async (ctx: CheckContext, spent: EndpointSpec): Promise<void> => {
  const count = ctx.target.limitOf(spent.bucket).count;
  let last = await ctx.callUnrecorded(spent);
  for (let i = 0; i < count && last.status !== 429; i++) last = await ctx.callUnrecorded(spent);
  ctx.record(last);
  if (last.status !== 429) {
    skip(
      `${spent.key} answered ${last.status}, not 429, after ${count + 1} requests: nothing to compare with`,
    );
  }
};

const spendingOneLeavesAnother = async (ctx: CheckContext): Promise<string> => {
  const [spent, other] = pairOf(ctx.target);
  const otherLimit = ctx.target.limitOf(other.bucket);
  const otherLog = () => ctx.bucketView(other.bucket, { tenant: ctx.target.profile.tenant });
  /** The refusal of `exchange` as the other bucket's own traffic cannot explain it, if so. */
  const refusedAlone = (exchange: Exchange) => {
    const log = otherLog();
    return refusedBelowLimit(
      log,
      otherLimit,
      log.filter((o) => o.request.exchange === exchange),
    );
  };
  // Room in the other bucket first (held until its answer), so a refusal there cannot be its own traffic's doing.
  return ctx.withRoom(other, 2 + SPEND_TRIES, async () => {
    const origin = ctx.now();
    // A refusal right before spending is the other bucket's own doing (a limit lower than stated, outside
    // traffic): one after it would prove nothing about the spent one.
    const before = await ctx.call(other);
    if (before.status === 429) {
      return inconclusive(
        `${other.key} got 429 before ${spent.key} was spent: its own limit refuses it, so nothing can be compared`,
      );
    }
    await spend(ctx, spent);
    let answer = await ctx.call(other);
    // Admitted: the spent bucket must be refused again right after, with nothing of it admitted between, to show it
    // was still spent then (a window that ended, or a token refilled, would have admitted it). A limiter that blocks
    // every endpoint only until the spent limit admits again lets the other through once that moment passes.
    for (let tries = 1; answer.status !== 429; tries++) {
      const after = await ctx.call(spent);
      if (after.status === 429) {
        return `with ${spent.key} spent (429 before and right after), ${other.key} got ${answer.status}`;
      }
      if (tries === SPEND_TRIES) {
        return inconclusive(
          `${other.key} got ${answer.status} ${tries} times, but ${spent.key} got ${after.status} right after each: it may have had room again when ${other.key} was answered, so this shows nothing`,
        );
      }
      await spend(ctx, spent);
      answer = await ctx.call(other);
    }
    const first = refusedAlone(answer);
    const ownTraffic = `with ${spent.key} spent, ${other.key} got 429, but its own recent traffic could explain it`;
    if (first === undefined) return inconclusive(ownTraffic);
    // One refusal can be a passing one (a restart, a blip): asked again at once, while the spent bucket is still
    // spent, it must be refused again if spending it is what refuses. Not a moment later: an aligned window spent
    // late in it ends within that moment.
    const again = await ctx.call(other);
    if (again.status !== 429) {
      return inconclusive(
        `with ${spent.key} spent, ${other.key} got 429 once, then ${again.status}: one refusal is no proof`,
      );
    }
    const second = refusedAlone(again);
    if (second === undefined) return inconclusive(`${ownTraffic} the second time`);
    const at = relativeTo(origin);
    return fail(
      `with ${spent.key} spent, ${other.key} got 429 twice in a row: ${first.explain(at)}; then ${second.explain(at)}`,
      showProof(ctx, otherLog(), otherLimit, origin, second),
    );
  });
};

/**
 * Runs before the probes, after the bearer checks: both its buckets have room then (after their probes they would
 * have none for a window), and the bucket it spends on purpose is one its probe would spend anyway.
 */
export const independenceCheck = (): CheckSpec => ({
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
        // Until a 429, and once more after the other bucket is admitted; again where it was admitted then.
        requests: SPEND_TRIES * (target.limitOf(target.endpoint(spent).bucket).count + 2),
        margin: 0,
      },
      // Before the spend, after each, and once again should that be refused.
      { key: 'independence:other', endpoint: other, requests: 2 + SPEND_TRIES, margin: 0 },
    ];
  },
  requires: [
    needsProfile(
      (target) => independencePair(target) !== undefined,
      'the profile lets harness call fewer than two buckets',
    ),
  ],
  run: spendingOneLeavesAnother,
});
