// The RateLimit checks against a faithful server in each dialect and under each limiter kind, each once (the limiter
// decides what the fields say, the dialect only how; test/reference/ratelimit-fields.test.ts has every pair): INFO
// names the dialect, every property the fields state is verified (PASS). On virtual time (test/support/simulation/).
// (A server that sends none gets INFO and nothing else: test/conformance/faithful.test.ts.)
import { describe, expect, it } from 'vitest';
import type { RunReport } from '../../src/runner/types.ts';
import { checksThrough } from '../support/forward.ts';
import { runSimulated } from '../support/simulation/run.ts';
import { deviations } from '../support/testbed.ts';

const RATELIMIT = ['ratelimit'];
const gradesOf = (report: RunReport) => Object.fromEntries(report.checks.map((c) => [c.id, c.grade]));
const messageOf = (report: RunReport, id: string) => report.checks.find((c) => c.id === id)?.message;

describe('RateLimit checks', () => {
  it.each([
    ['draft', 'anchored'],
    ['draft', 'token-bucket'],
    ['triple', 'aligned'],
    ['draft-7', 'sliding-log'],
    ['x-ratelimit', 'sliding-log'],
  ] as const)(
    'name the %s dialect and verify what it says under the %s limiter',
    async (dialect, limiter) => {
      const report = await runSimulated({ rateLimitFields: dialect, limiter }, { seed: 11, only: RATELIMIT });
      expect(deviations(report)).toEqual({});
      expect(gradesOf(report)).toEqual({
        'RATELIMIT-FIELDS': 'INFO',
        'RATELIMIT-POLICY': 'PASS',
        'RATELIMIT-REMAINING': 'PASS',
        'RATELIMIT-RESET': 'PASS',
        'RATELIMIT-RETRY-AFTER': 'PASS',
      });
      const named = {
        draft: /IETF draft's named lists/,
        triple: /RateLimit-Limit\/-Remaining\/-Reset triple/,
        'x-ratelimit': /X-RateLimit-\*/,
        'draft-7': /draft -07's RateLimit Dictionary/,
      };
      expect(messageOf(report, 'RATELIMIT-FIELDS')).toMatch(named[dialect]);
    },
  );

  // A message must be true of what was read: where the field bounds cut policies off, POLICY says so beside its
  // verdict. Every answer carries 300 policies (5 KB), all of §8's 120 per (2 s) minute; harness reads the first 16.
  it('POLICY says what the field bounds left unread, in its PASS and in its INFO', async () => {
    const agreeing = Array.from({ length: 300 }, (_, i) => `"p${i}";q=120;w=2`).join(', ');
    const passed = await checksThrough(['RATELIMIT-POLICY'], () => ({
      answerHeaders: () => ({ 'ratelimit-policy': agreeing }),
    }));
    expect(passed['RATELIMIT-POLICY']?.grade).toBe('PASS');
    expect(passed['RATELIMIT-POLICY']?.message).toMatch(
      /declare q=120;w=2 in the IETF draft's named lists .*; not read: RateLimit-Policy is \d+ bytes, over the 1024 harness reads: only its first 16 members were read/,
    );
    // One policy whose name alone passes the bound: nothing of it is read, and INFO says why, not "no quota".
    const unread = `"${'a'.repeat(1100)}";q=120;w=2`;
    const recorded = await checksThrough(['RATELIMIT-POLICY'], () => ({
      answerHeaders: () => ({ 'ratelimit-policy': unread }),
    }));
    expect(recorded['RATELIMIT-POLICY']?.grade).toBe('INFO');
    expect(recorded['RATELIMIT-POLICY']?.message).toBe(
      `none of the fields sent (ratelimit-policy, read as the IETF draft's named lists (-08 to -11)) states a quota; not read: RateLimit-Policy is ${unread.length} bytes, over the 1024 harness reads: none of it was read`,
    );
  });
});
