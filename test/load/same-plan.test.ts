// `harness conformance` and `harness load` read one profile the same way: the buckets each probes (side_effects)
// and the limit it holds each to (overrides by bucket or by endpoint key) come from one resolution
// (src/profile/target.ts), whatever each then does with them.
import { describe, expect, it } from 'vitest';
import { allChecks } from '../../conformance/index.ts';
import { InputError } from '../../src/errors.ts';
import { k6PlanFor, planProbes } from '../../src/k6-driver/plan.ts';
import { planPreflight } from '../../src/k6-driver/preflight-plan.ts';
import { resolveTarget } from '../../src/profile/target.ts';
import { planOf } from '../../src/runner/plan.ts';
import { selectChecks } from '../../src/runner/select.ts';
import type { EndpointKey, Profile } from '../../src/spec/index.ts';
import { PLAN_ONLY_TARGET } from './target.ts';

const BASE: Profile = {
  ...PLAN_ONLY_TARGET,
  observability: ['GET /api/observability/a', 'GET /api/observability/b'],
  ids: {
    batch_id: { value: 'b-1' },
    execution_id: { value: 'e-1' },
  },
};

type Decided = Record<string, string>;

/** What a conformance run probes: each bucket whose probe the profile lets it send, at the limit it grades. */
const conformanceDecides = (profile: Profile): Decided => {
  const target = resolveTarget(profile);
  const plan = planOf(selectChecks(allChecks(target), { slow: true }), target);
  const decided: Decided = {};
  for (const item of plan.filter((i) => i.probe)) {
    const endpoint = target.endpoint(item.endpoint as EndpointKey);
    if (!target.reachable(endpoint)) continue;
    const { count, per, windowMs } = target.limitOf(endpoint.bucket);
    decided[endpoint.bucket] = `${count}/${per} in ${windowMs} ms`;
  }
  return decided;
};

/** What a load run probes: each bucket one of its own probes covers, at the limit its phases are judged by. */
const loadDecides = (profile: Profile): Decided => {
  const { probes } = planProbes(resolveTarget(profile), { scenarios: ['all'] });
  const decided: Decided = {};
  for (const phase of probes.flatMap((p) => p.phases).filter((p) => !p.probe.startsWith('tenant-'))) {
    const { count, per, windowMs } = phase.limit;
    decided[phase.bucket] = `${count}/${per} in ${windowMs} ms`;
  }
  return decided;
};

const PROFILES: readonly [string, Profile, Decided][] = [
  [
    'overrides by endpoint key and by bucket, shortened minutes',
    {
      ...BASE,
      minute_ms: 2000,
      limits: {
        'POST /event/transaction/v3': { count: 200, per: 'second' },
        'rules-schedule': { count: 60, per: 'minute' },
      },
    },
    {
      'transaction-event': '200/second in 1000 ms',
      'rules-schedule': '60/minute in 2000 ms',
      'rules-rerun': '1/minute in 2000 ms',
    },
  ],
  [
    'a bucket override and an endpoint override of the same bucket: the bucket wins',
    {
      ...BASE,
      limits: {
        'POST /event/transaction/v3': { count: 200, per: 'second' },
        'transaction-event': { count: 300, per: 'second' },
      },
    },
    { 'transaction-event': '300/second in 1000 ms' },
  ],
  [
    'side_effects: deny',
    { ...BASE, side_effects: 'deny' },
    { 'rules-schedule': '120/minute in 60000 ms', 'batch-status': '120/minute in 60000 ms' },
  ],
  [
    'side_effects: deny, batch_id taken from an endpoint it denies',
    {
      ...BASE,
      side_effects: 'deny',
      ids: {
        batch_id: { from: 'POST /api/transactions/batch/generate-upload-url', pointer: '/batch_id' },
        execution_id: { value: 'e-1' },
      },
    },
    { 'rules-schedule': '120/minute in 60000 ms' },
  ],
  [
    'side_effects naming one acting endpoint, an Observability endpoint overridden by its key',
    {
      ...BASE,
      side_effects: ['POST /api/rules/execute'],
      limits: { 'GET /api/observability/b': { count: 50, per: 'minute' } },
    },
    { 'rules-execute': '30/minute in 60000 ms', observability: '50/minute in 60000 ms' },
  ],
];

describe('conformance and load resolve the same plan for the same profile', () => {
  it.each(PROFILES)('%s', (_name, profile, expected) => {
    const conformance = conformanceDecides(profile);
    const load = loadDecides(profile);
    expect(load).toEqual(conformance);
    expect(load).toMatchObject(expected);
  });

  it('sends no pre-flight request to an id source side_effects denies', () => {
    const profile: Profile = {
      ...BASE,
      side_effects: 'deny',
      ids: { batch_id: { from: 'POST /api/transactions/batch/generate-upload-url', pointer: '/batch_id' } },
    };
    const all = k6PlanFor(resolveTarget(profile), { scenarios: ['all'] });
    expect(all.preflight.idSources).toEqual([]);
    // Even a plan given such a phase directly refuses it, naming the field.
    const phases = planProbes(resolveTarget(BASE), { scenarios: ['batch-status'] }).probes.flatMap(
      (p) => p.phases,
    );
    expect(() => planPreflight(resolveTarget(profile), phases)).toThrow(
      new InputError(
        'ids.batch_id.from: side_effects does not let harness call POST /api/transactions/batch/generate-upload-url',
      ),
    );
  });

  it('leaves out of both an endpoint whose ids form a loop, in a profile never checked for one', () => {
    const looping: Profile = {
      ...BASE,
      ids: {
        batch_id: { from: 'GET /api/rules/status/{execution_id}', pointer: '/id' },
        execution_id: { from: 'GET /api/transactions/batch/status/{batch_id}', pointer: '/id' },
      },
    };
    const load = loadDecides(looping);
    expect(load).toEqual(conformanceDecides(looping));
    expect(load).not.toHaveProperty('batch-status');
    expect(load).not.toHaveProperty('rules-status');
  });

  it('leaves out of both what side_effects denies', () => {
    const denied = ['transaction-event', 'rules-rerun', 'batch-upload-url', 'rules-execute'];
    for (const decided of [conformanceDecides, loadDecides].map((f) => f({ ...BASE, side_effects: 'deny' })))
      expect(Object.keys(decided).filter((bucket) => denied.includes(bucket))).toEqual([]);
  });
});
