// The RateLimit checks against a faithful server in each dialect and under each limiter kind, each once (the limiter
// decides what the fields say, the dialect only how; test/reference/ratelimit-fields.test.ts has every pair): INFO
// names the dialect, every property the fields state is verified (PASS). One run at a time: the files beside it time
// windows too. (A server that sends none gets INFO and nothing else: test/conformance/faithful.test.ts.)
import { describe, expect, it } from 'vitest';
import type { RunReport } from '../../src/runner/types.ts';
import { deviations, runAgainst } from '../../src/testbed/conformance.ts';

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
      const [report] = await runAgainst({ rateLimitFields: dialect, limiter }, { only: RATELIMIT });
      expect(deviations(report!)).toEqual({});
      expect(gradesOf(report!)).toEqual({
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
      expect(messageOf(report!, 'RATELIMIT-FIELDS')).toMatch(named[dialect]);
    },
  );
});
