// The RATELIMIT checks against the rate-limiting libraries people use, each run as a real gateway in front of the
// reference server (test/support/gateways): every dialect they send is read on its own terms. Honest fields are
// verified (PASS, or INFO where a check only records), a quota lie in each dialect is a WARN on POLICY and REMAINING,
// and every message names only the fields that were sent.
import { describe, expect, it } from 'vitest';
import type { RunReport } from '../../src/runner/types.ts';
import { expressGateway } from '../support/gateways/express.ts';
import { fastifyGateway } from '../support/gateways/fastify.ts';
import { gradeBehind, type StartGateway } from '../support/gateways/gateway.ts';
import { nestGateway } from '../support/gateways/nest.ts';

const gradesOf = (report: RunReport) => Object.fromEntries(report.checks.map((c) => [c.id, c.grade]));
const messagesOf = (report: RunReport) => Object.fromEntries(report.checks.map((c) => [c.id, c.message]));

interface Library {
  readonly start: StartGateway;
  /** How RATELIMIT-FIELDS names the dialect read. */
  readonly dialect: RegExp;
  /** The fields the library sends, exactly: RATELIMIT-FIELDS names these and no other. */
  readonly fields: readonly string[];
  /**
   * What only records (INFO) instead of verifying: @nestjs/throttler's 429s carry no reset time and no plain
   * Retry-After, only its Retry-After-<name>, so there is no promised wait to hold them to.
   */
  readonly recordsOnly?: readonly string[];
}

const LIBRARIES: Record<string, Library> = {
  'express-rate-limit draft-6': {
    start: expressGateway('draft-6'),
    dialect: /RateLimit-Limit\/-Remaining\/-Reset triple/,
    fields: ['ratelimit-policy', 'ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset'],
  },
  'express-rate-limit draft-7': {
    start: expressGateway('draft-7'),
    dialect: /draft -07's RateLimit Dictionary/,
    fields: ['ratelimit-policy', 'ratelimit'],
  },
  'express-rate-limit draft-8': {
    start: expressGateway('draft-8'),
    dialect: /IETF draft's named lists/,
    fields: ['ratelimit', 'ratelimit-policy'],
  },
  '@fastify/rate-limit': {
    start: fastifyGateway(false),
    dialect: /X-RateLimit-\*/,
    fields: ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'],
  },
  '@fastify/rate-limit enableDraftSpec': {
    start: fastifyGateway(true),
    dialect: /RateLimit-Limit\/-Remaining\/-Reset triple/,
    fields: ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset'],
  },
  '@nestjs/throttler, a named throttler': {
    start: nestGateway,
    dialect: /X-RateLimit-\*/,
    fields: [
      'x-ratelimit-limit-schedule',
      'x-ratelimit-remaining-schedule',
      'x-ratelimit-reset-schedule',
      'retry-after-schedule',
    ],
    recordsOnly: ['RATELIMIT-RESET', 'RATELIMIT-RETRY-AFTER'],
  },
};

/** Every field name a message quotes as sent (`name: value`), of the RateLimit names harness reads. */
const quotedFields = (message: string) =>
  [...message.matchAll(/\b((?:x-)?ratelimit(?:-[a-z0-9-]+)?|retry-after-[a-z0-9-]+):/g)].map((m) => m[1]);

describe.each(Object.entries(LIBRARIES))('%s as a gateway', (_, library) => {
  it('is read in its own dialect, and what it says is verified', async () => {
    const report = await gradeBehind(library.start, false);
    const grades = gradesOf(report);
    const messages = messagesOf(report);
    const verified = ['RATELIMIT-POLICY', 'RATELIMIT-REMAINING', 'RATELIMIT-RESET', 'RATELIMIT-RETRY-AFTER'];
    expect(grades).toEqual({
      'RATELIMIT-FIELDS': 'INFO',
      ...Object.fromEntries(verified.map((id) => [id, library.recordsOnly?.includes(id) ? 'INFO' : 'PASS'])),
    });
    expect(messages['RATELIMIT-FIELDS']).toMatch(library.dialect);
    expect(new Set(quotedFields(messages['RATELIMIT-FIELDS']!))).toEqual(new Set(library.fields));
    for (const message of Object.values(messages)) expect(message).not.toMatch(/declare no|declared no/);
    for (const id of library.recordsOnly ?? []) {
      expect(messages[id]).toMatch(
        /not the Retry-After SPEC.md §8 rule 2 asks for|no 429 carried a reset time/,
      );
    }
  });

  it('lying about its quota is a WARN on POLICY and REMAINING', async () => {
    const report = await gradeBehind(library.start, true);
    expect(gradesOf(report)).toMatchObject({ 'RATELIMIT-POLICY': 'WARN', 'RATELIMIT-REMAINING': 'WARN' });
    expect(messagesOf(report)['RATELIMIT-POLICY']).toMatch(/declares (?:"[^"]+" )?q=1000/);
  });
});

// Retry-After-<name> is a named throttler's own field: §8 rule 2's Retry-After is still missing from every 429.
it("@nestjs/throttler's 429s without a plain Retry-After FAIL LIMIT-RETRY-AFTER, whatever Retry-After-<name> says", async () => {
  const report = await gradeBehind(nestGateway, false, ['LIMIT-RETRY-AFTER-RULES-SCHEDULE']);
  expect(gradesOf(report)).toEqual({ 'LIMIT-RETRY-AFTER-RULES-SCHEDULE': 'FAIL' });
  expect(messagesOf(report)['LIMIT-RETRY-AFTER-RULES-SCHEDULE']).toMatch(/carries no Retry-After header/);
});

// Its default blockDuration blocks the key a window from the request that went over, past the window the limit
// allows: an edge poll refused below the limit, and the request sent at once after it refused too, twice in a row,
// decide it where outside traffic of the tenant might otherwise explain one refusal.
it("@nestjs/throttler's default block FAILs LIMIT-ADMITS twice in a row, the tenant not exclusive", async () => {
  const report = await gradeBehind(nestGateway, false, ['LIMIT-ADMITS-RULES-SCHEDULE'], false);
  expect(gradesOf(report)).toEqual({ 'LIMIT-ADMITS-RULES-SCHEDULE': 'FAIL' });
  expect(messagesOf(report)['LIMIT-ADMITS-RULES-SCHEDULE']).toMatch(/refused below the limit twice in a row/);
});
