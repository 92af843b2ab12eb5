import { describe, expect, it } from 'vitest';
import { FAULTS, type FaultName } from '../../src/reference/index.ts';
import { useServers } from './helpers.ts';
import { PROBE_LIMITS, PROBES } from './probes.ts';

const start = useServers();

/** The probes that fail on a server with `fault` (none for the faithful server), each on a fresh server. */
const failing = async (fault: FaultName | undefined): Promise<string[]> => {
  const names = Object.keys(PROBES) as FaultName[];
  const results = await Promise.all(
    names.map(async (name) => PROBES[name](await start({ fault, limits: PROBE_LIMITS }))),
  );
  return names.filter((_, i) => !results[i]);
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
});

describe('each fault breaks its own rule and no other', () => {
  it('the faithful server keeps every rule', async () => {
    expect(await failing(undefined)).toEqual([]);
  });

  it.each(FAULTS.map((f) => f.name))('%s', async (fault) => {
    expect(await failing(fault)).toEqual([fault]);
  });
});
