// A limit FAIL's evidence holds the exchanges its message cites: the 429 the proof turns on and requests it counts,
// not only the probe's first request (issue 23: "Evidence: 1 exchange" showed 'spend #1' → 202 alone).
import { describe, expect, it } from 'vitest';
import { runSimulated } from '../support/simulation/run.ts';

describe('the evidence of a limit FAIL', () => {
  it.each([
    ['wrong-limit-execute', 'LIMIT-ENFORCED-RULES-EXECUTE', ['rules-execute']],
    ['limit-per-client', 'LIMIT-TENANT-SHARED', ['LIMIT-TENANT-SHARED']],
  ] as const)(
    '%s: %s holds the requests its proof names, the 429 too when it rests on one',
    async (fault, id, only) => {
      const report = await runSimulated({ fault }, { seed: 11, only });
      const check = report.checks.find((c) => c.id === id)!;
      expect(check.grade, check.message).toBe('FAIL');
      // A limit FAIL rests on a 429 ('spend #121' got 429 …) or, when the burst outran it, on admitted requests
      // counted together: whichever proof it gives, every request it names is in its evidence.
      const named = [...check.message.matchAll(/'([^']+)'/g)].map((m) => m[1]);
      const labels = check.evidence.map((e) => e.label);
      for (const label of named) expect(labels, check.message).toContain(label);
      if (/ got 429/.test(check.message)) {
        expect(named.length, check.message).toBeGreaterThan(0);
        expect(check.evidence.some((e) => e.response?.status === 429)).toBe(true);
      }
      expect(
        check.evidence.filter((e) => e.response !== undefined && e.response.status < 300).length,
      ).toBeGreaterThan(1);
      expect(new Set(check.evidence).size).toBe(check.evidence.length);
    },
    60_000,
  );
});
