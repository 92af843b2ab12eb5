// SPEC.md §8 rule 1 on every bucket it applies to: one check a property and bucket, each with its variant in that
// bucket's probe, and a profile without what a property needs SKIPs it before the run as not verified, never PASS.
import { describe, expect, it } from 'vitest';
import { probePlan } from '../../conformance/bucket-probe.ts';
import { allChecks } from '../../conformance/index.ts';
import { resolveTarget } from '../../src/profile/target.ts';
import { resolveOptions } from '../../src/reference/options.ts';
import { buildProfile } from '../../src/reference/profile.ts';
import { planChecks } from '../../src/runner/plan-skips.ts';
import { selectChecks } from '../../src/runner/select.ts';
import { BUCKETS, type BucketId, LIMIT_RULES, type Profile } from '../../src/spec/index.ts';

const full = buildProfile(resolveOptions(), 'http://127.0.0.1:9', 'http://127.0.0.1:9/oauth2/token');
const buckets = Object.keys(BUCKETS) as BucketId[];
const TEMPLATED: readonly BucketId[] = ['batch-status', 'batch-validation-result', 'rules-status'];

/** Each planned sharing check's ID and why it does not run ('run' if it does), for the profile. */
const planned = (profile: Profile): Map<string, string> => {
  const target = resolveTarget(profile);
  return new Map(
    planChecks(
      selectChecks(allChecks(target), { only: ['tenant-isolation', 'tenant-sharing', 'path-id-sharing'] }),
      target,
    )
      .filter((s) => !s.deselected)
      .map((s) => [s.check.id, s.excluded ?? 'run']),
  );
};

describe('§8 rule 1, one check a property on every bucket it applies to', () => {
  const checks = allChecks(resolveTarget(full));
  const of = (tag: string) => checks.filter((c) => c.tags.includes(tag));

  it.each([
    ['tenant-isolation', 'LIMIT-TENANT-ISOLATED', 'rules-schedule', buckets],
    ['tenant-sharing', 'LIMIT-TENANT-SHARED', 'rules-schedule', buckets],
    ['path-id-sharing', 'LIMIT-PATH-ID-SHARED', 'batch-status', TEMPLATED],
  ] as const)(
    '%s: %s on each of its buckets, the bucket tested first keeping its ID',
    (tag, id, first, on) => {
      const found = of(tag);
      expect(found.map((c) => c.lane).sort()).toEqual([...on].sort());
      for (const check of found) {
        expect(check.id).toBe(check.lane === first ? id : `${id}-${check.lane.toUpperCase()}`);
        expect([check.clause, check.quote]).toEqual([
          LIMIT_RULES.perTenant.clause,
          LIMIT_RULES.perTenant.text,
        ]);
        expect(check.required).toBe(true);
        expect(check.tags).toContain(check.lane);
      }
    },
  );

  it("sends each bucket's variants in that bucket's probe: one request each after the spend", () => {
    const target = resolveTarget(full);
    for (const bucket of buckets) {
      const variants = probePlan(target, bucket).variants;
      const expected = [
        ...(TEMPLATED.includes(bucket)
          ? [`another ${bucket === 'rules-status' ? 'execution_id' : 'batch_id'}`]
          : []),
        'another application of the same tenant',
        'a client of another tenant',
      ];
      expect(variants.map((v) => v.name)).toEqual(expected);
      expect(variants.every((v) => v.endpoint.bucket === bucket)).toBe(true);
    }
  });
});

describe('a profile without what a property needs: not verified, decided by the planner', () => {
  it('runs every sharing check on the full profile', () => {
    const plan = planned(full);
    expect(plan.size).toBe(2 * buckets.length + TEMPLATED.length);
    expect([...plan.values()].every((why) => why === 'run')).toBe(true);
  });

  it.each([
    ['other_tenant', 'tenant-isolation'],
    ['same_tenant', 'tenant-sharing'],
  ] as const)('without clients.%s, each %s check SKIPs naming it', (role, tag) => {
    const { [role]: _, ...clients } = full.clients;
    const target = resolveTarget({ ...full, clients });
    const plan = planned({ ...full, clients: clients as Profile['clients'] });
    const ids = allChecks(target)
      .filter((c) => c.tags.includes(tag))
      .map((c) => c.id);
    expect(ids).toHaveLength(buckets.length);
    for (const id of ids)
      expect(plan.get(id)).toMatch(new RegExp(`^not verified: the profile has no clients\\.${role}`));
    // The other properties still run, and the bucket's probe sends no variant for the missing client.
    expect([...plan].filter(([id, why]) => !ids.includes(id) && why !== 'run')).toEqual([]);
    expect(probePlan(target, 'rules-schedule').variants).toHaveLength(1);
  });

  it('with an id given as one fixed value, path-id sharing SKIPs: it needs a second id the target issued', () => {
    const ids = { ...full.ids, batch_id: { value: 'b-1' } } as Profile['ids'];
    const plan = planned({ ...full, ids });
    for (const id of ['LIMIT-PATH-ID-SHARED', 'LIMIT-PATH-ID-SHARED-BATCH-VALIDATION-RESULT'])
      expect(plan.get(id)).toBe(
        'not verified: ids.batch_id is one fixed value, and sharing needs a second batch_id the target issued (ids.batch_id.from)',
      );
    expect(plan.get('LIMIT-PATH-ID-SHARED-RULES-STATUS')).toBe('run');
    expect(plan.get('LIMIT-TENANT-ISOLATED-BATCH-STATUS')).toBe('run');
  });

  it('with no source of an id, path-id sharing says where it would come from', () => {
    const { execution_id: _, ...rest } = full.ids ?? {};
    const plan = planned({ ...full, ids: rest as Profile['ids'] });
    expect(plan.get('LIMIT-PATH-ID-SHARED-RULES-STATUS')).toBe(
      'not verified: the profile does not say where execution_id comes from (ids.execution_id), and sharing needs two of them',
    );
  });
});
