import { describe, expect, it } from 'vitest';
import { DIALECT_NAMES } from '../../core/ratelimit-dialects.ts';
import { FAITHFUL } from '../../src/reference/behaviour.ts';
import { behaviourOf } from '../../src/reference/faults.ts';
import {
  FAULTS,
  type FaultName,
  LIMITER_KINDS,
  type ReferenceServerOptions,
} from '../../src/reference/index.ts';
import { useServers } from './helpers.ts';
import { PROBE_LIMITS, PROBES } from './probes.ts';

const start = useServers();

/** The probes that fail on a server with `fault` (none for the faithful server), each on a fresh server. */
const failing = async (
  fault: FaultName | undefined,
  options: ReferenceServerOptions = {},
  names = Object.keys(PROBES) as FaultName[],
): Promise<string[]> => {
  const results = await Promise.all(
    names.map(async (name) => PROBES[name](await start({ ...options, fault, limits: PROBE_LIMITS }))),
  );
  return names.filter((_, i) => !results[i]);
};

/** The faults that change what the limiter does or says; each must work whatever the limiter's algorithm. */
const LIMIT_FAULTS: FaultName[] = [
  'retry-after-missing',
  'retry-after-http-date',
  'retry-after-fractional',
  'retry-after-too-short',
  'retry-after-too-long',
  'retry-after-rounded-down',
  'limited-as-503',
  'limited-503-one-in-ten',
  'limited-503-once-bare',
  'limit-per-client',
  'limit-shared-across-tenants',
  'limit-blocks-tenant',
  'observability-separate-buckets',
  'limit-per-path-id',
  'observability-shared-across-tenants',
  'post-limits-per-client',
  'rules-status-per-execution-id',
  'wrong-limit-execute',
  'wrong-limit-transaction',
  'no-limit-schedule',
  'limit-penalty-box',
  'limit-window-short',
  'limit-early-reset',
  'limit-fail-open-slice',
  'limit-racy-counter',
  'observability-split',
  'limit-first-window-low',
  'limit-counts-refused',
  'retry-after-short-late',
  'limit-queues',
];

/**
 * Rules a limit fault breaks too under some limiter kinds, by what it is. Windows that reset early are short windows
 * (under an aligned limiter the probe that follows Retry-After meets one); a token bucket held shut in its first
 * window is full when it opens, so after that refusal it admits more than a window's worth.
 */
/**
 * Rules a fault breaks too, by what it is: a window longer than stated refuses below the limit, as counting refusals
 * does, and its honest Retry-After is longer than the stated window.
 */
const ALSO_BREAKS: Partial<Record<FaultName, readonly FaultName[]>> = {
  'limit-window-long': ['limit-counts-refused', 'retry-after-too-long'],
  // On a clock that stands still no admit is ever counted, so no burst is refused: every probe that needs a 429
  // from a burst, or an exact count of admits, sees none.
  'limit-racy-counter': [
    'limit-first-window-low',
    'limit-per-client',
    'limit-per-path-id',
    'limited-as-503',
    'no-limit-schedule',
    'observability-separate-buckets',
    'post-limits-per-client',
    'retry-after-missing',
    'rules-status-per-execution-id',
    'wrong-limit-execute',
    'wrong-limit-transaction',
  ],
};

const MAY_ALSO_BREAK: Partial<Record<FaultName, readonly FaultName[]>> = {
  'limit-early-reset': ['limit-window-short'],
  'limit-first-window-low': ['limit-window-short'],
  // Admits past the limit where a probe's request lands in its slice, as a window that ended early would.
  'limit-fail-open-slice': ['limit-window-short'],
};

/** A fault that breaks a rule of §8 on every bucket breaks it on the buckets a fault of one or a few breaks it on. */
const BREAKS_ON_SOME: Partial<Record<FaultName, readonly FaultName[]>> = {
  'limit-per-client': ['post-limits-per-client'],
  'limit-shared-across-tenants': ['observability-shared-across-tenants'],
  'limit-per-path-id': ['rules-status-per-execution-id'],
};

describe('fault catalogue', () => {
  it('has at least 20 uniquely named faults, each naming its SPEC.md clause and rule', () => {
    expect(FAULTS.length).toBeGreaterThanOrEqual(20);
    expect(new Set(FAULTS.map((f) => f.name)).size).toBe(FAULTS.length);
    for (const fault of FAULTS) {
      expect(fault.clause).toMatch(/^§\d/);
      expect(fault.rule.length).toBeGreaterThan(10);
    }
    expect(Object.keys(PROBES).sort()).toEqual(FAULTS.map((f) => f.name).sort());
  });

  it('says, for each fault, which points of the faithful behaviour it changes, and changes no two faults alike', () => {
    const changed = FAULTS.map((fault) => {
      const points = Object.keys(fault.breaks);
      expect(points.length, fault.name).toBeGreaterThan(0);
      for (const point of points) expect(Object.keys(FAITHFUL), fault.name).toContain(point);
      return `${points.sort().join(',')}=${JSON.stringify(fault.breaks, (_k, v) => (typeof v === 'function' ? String(v) : v))}`;
    });
    expect(new Set(changed).size).toBe(FAULTS.length);
    expect(behaviourOf(undefined)).toEqual(FAITHFUL);
    expect(behaviourOf('limited-as-503')).toEqual({ ...FAITHFUL, limitedStatus: 503 });
  });
});

describe('each fault breaks its own rule and no other', () => {
  it('the faithful server keeps every rule', async () => {
    expect(await failing(undefined)).toEqual([]);
  });

  it.each(DIALECT_NAMES)(
    'the faithful server sending RateLimit fields (%s) keeps every rule',
    async (dialect) => {
      expect(await failing(undefined, { rateLimitFields: dialect })).toEqual([]);
    },
  );

  it.each(FAULTS.map((f) => f.name))('%s', async (fault) => {
    const also = [...(BREAKS_ON_SOME[fault] ?? []), ...(ALSO_BREAKS[fault] ?? [])];
    expect((await failing(fault)).sort()).toEqual([fault, ...also].sort());
  });
});

describe.each(LIMITER_KINDS)('limit faults under the %s limiter', (limiter) => {
  it('the faithful server keeps every limit rule', async () => {
    expect(await failing(undefined, { limiter }, LIMIT_FAULTS)).toEqual([]);
  });

  it.each(LIMIT_FAULTS)('%s breaks its own rule and no other limit rule', async (fault) => {
    const found = await failing(fault, { limiter }, LIMIT_FAULTS);
    expect(found).toContain(fault);
    expect(
      found.filter(
        (name) =>
          name !== fault &&
          !MAY_ALSO_BREAK[fault]?.includes(name as FaultName) &&
          !ALSO_BREAKS[fault]?.includes(name as FaultName) &&
          !BREAKS_ON_SOME[fault]?.includes(name as FaultName),
      ),
    ).toEqual([]);
  });
});

describe('gateway mode (limit before auth)', () => {
  it('the faithful server keeps every rule', async () => {
    expect(await failing(undefined, { limitBeforeAuth: true })).toEqual([]);
  });
});
