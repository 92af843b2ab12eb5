// SPEC.md §8 rule 1: who shares a limit. Graded from requests a bucket's probe sends right after the bucket is spent
// (see probeVariants), plus one check that spending one bucket leaves another alone.
import type { CheckContext } from '../src/conformance/context.ts';
import { fail, skip } from '../src/conformance/grades.ts';
import { isLimited, type Variant } from '../src/conformance/probe.ts';
import type { Target } from '../src/conformance/target.ts';
import type { CheckDefinition } from '../src/conformance/types.ts';
import type { BucketId, ClientRole, EndpointKey } from '../src/spec/index.ts';
import { authorised, probe, probePlan, probeRequests } from './limits.ts';

const RULE_1 =
  'Limits are per tenant and per endpoint. Several integrations or applications of the same tenant share the same limit.';

interface SharingRule {
  readonly id: string;
  readonly title: string;
  readonly bucket: BucketId;
  readonly variant: string;
  /** The client the variant needs from the profile, if any. */
  readonly client?: ClientRole;
  /** Whether the variant must be refused (shares the spent bucket) or admitted (does not). */
  readonly shares: boolean;
}

const OTHER_BATCH_ID = 'another batch_id';
const SAME_TENANT = 'another application of the same tenant';
const OTHER_TENANT = 'a client of another tenant';

const RULES: readonly SharingRule[] = [
  {
    id: 'LIMIT-PATH-ID-SHARED',
    title: 'Batch status calls with different batch ids draw from one limit',
    bucket: 'batch-status',
    variant: OTHER_BATCH_ID,
    shares: true,
  },
  {
    id: 'LIMIT-TENANT-SHARED',
    title: 'Two applications of one tenant share a limit',
    bucket: 'rules-schedule',
    variant: SAME_TENANT,
    client: 'same_tenant',
    shares: true,
  },
  {
    id: 'LIMIT-TENANT-ISOLATED',
    title: "Another tenant is not limited by this tenant's traffic",
    bucket: 'rules-schedule',
    variant: OTHER_TENANT,
    client: 'other_tenant',
    shares: false,
  },
];

export const probeVariants = (target: Target, bucket: BucketId): Variant[] =>
  RULES.filter(
    (rule) => rule.bucket === bucket && (rule.client === undefined || target.profile.clients[rule.client]),
  ).map((rule) => ({
    name: rule.variant,
    endpoint: target.endpointsIn(bucket)[0]!,
    options: async (session) =>
      rule.client === undefined
        ? { ids: { batch_id: await session.otherPathId('batch_id') } }
        : { client: rule.client },
  }));

const graded =
  (rule: SharingRule) =>
  async (ctx: CheckContext): Promise<string> => {
    const plan = probePlan(ctx.target, rule.bucket);
    const result = await probe(ctx, rule.bucket);
    const exchange = result.variants.get(rule.variant);
    if (exchange === undefined) {
      // Either the variant could not be formed (this says why) or the bucket was never spent.
      await (
        plan.variants.find((v) => v.name === rule.variant) ??
        skip(`the profile has no clients.${rule.client}`)
      ).options(ctx.session);
      return skip(`the ${rule.bucket} bucket was never spent, so sharing cannot be judged`);
    }
    ctx.record(authorised(exchange));
    const refused = isLimited(exchange);
    if (rule.shares && !refused) {
      return fail(
        `with the ${rule.bucket} limit spent, a request from ${rule.variant} got ${exchange.status}, not 429`,
      );
    }
    if (!rule.shares && refused) {
      return fail(`with this tenant's ${rule.bucket} limit spent, ${rule.variant} got 429`);
    }
    return `with the ${rule.bucket} limit spent, ${rule.variant} got ${exchange.status}`;
  };

export const sharingChecks = (): CheckDefinition[] =>
  RULES.map(
    (rule): CheckDefinition => ({
      id: rule.id,
      title: rule.title,
      clause: '§8 rule 1',
      quote: RULE_1,
      tags: ['limits', 'sharing', rule.bucket],
      lane: rule.bucket,
      required: true,
      plan: (target) => probeRequests(target, rule.bucket),
      run: graded(rule),
    }),
  );

/** Runs last, after the bearer checks: it spends a bucket on purpose. */
export const independenceCheck = (): CheckDefinition =>
  ({
    id: 'LIMIT-BUCKETS-INDEPENDENT',
    title: 'Spending the limit of one endpoint does not limit another',
    clause: '§8 rule 1',
    quote: RULE_1,
    tags: ['limits', 'sharing'],
    lane: 'after',
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
        { key: 'independence:other', endpoint: other, requests: 1, margin: 0 },
      ];
    },
    run: async (ctx) => {
      const pair =
        independencePair(ctx.target) ?? skip('the profile lets harness call fewer than two buckets');
      const [spent, other] = pair.map((key) => ctx.target.endpoint(key));
      const count = ctx.target.limitOf(spent!.bucket).count;
      let last = await ctx.session.call(spent!);
      for (let i = 0; i < count && !isLimited(last); i++) last = await ctx.session.call(spent!);
      ctx.record(last);
      if (!isLimited(last)) {
        return skip(
          `${spent!.key} answered ${last.status}, not 429, after ${count + 1} requests: nothing to compare with`,
        );
      }
      const answer = await ctx.call(other!);
      if (isLimited(answer)) return fail(`with ${spent!.key} spent, ${other!.key} got 429`);
      return `with ${spent!.key} spent, ${other!.key} got ${answer.status}`;
    },
  }) satisfies CheckDefinition;

/** The callable bucket with the smallest limit (cheapest to spend) and one with room left after its own probe. */
const independencePair = (target: Target): [EndpointKey, EndpointKey] | undefined => {
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
