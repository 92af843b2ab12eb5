// What the RATELIMIT messages quote of a field: the exchange's evidence, redacted and cut in one step, so a field
// far longer than evidence keeps is cut, and a secret straddling the cut shows no start of itself.
import { describe, expect, it } from 'vitest';
import { namedRetryAfters, type Said, shown } from '../../conformance/ratelimit-said.ts';
import {
  captureRequest,
  captureResponse,
  Exchange,
  MAX_EVIDENCE_HEADER_CHARS,
} from '../../src/client/evidence.ts';
import { readRateLimitFields } from '../../src/client/ratelimit-fields.ts';
import { REDACTED, Redactor } from '../../src/client/redact.ts';
import type { ObservedRequest } from '../../src/runner/checks.ts';

const SECRET = 'S3CR3T-0123456789-ABCDEFGHIJ';
const CUT = MAX_EVIDENCE_HEADER_CHARS;
/** A value with the secret starting `before` characters ahead of the cut, and far longer than evidence keeps. */
const straddling = (before: number) => `${'.'.repeat(CUT - before)}${SECRET}${'.'.repeat(2 * CUT)}`;

/** The readings of one 429 carrying `headers`, as RATELIMIT checks hold them, the secret known to the session. */
const saidOf = (headers: Record<string, string>): Said[] => {
  const redactor = new Redactor();
  redactor.addSecret(SECRET);
  const evidence = {
    request: captureRequest(redactor, 'GET', 'http://127.0.0.1/', {}, undefined, 4096),
    response: captureResponse(redactor, 429, headers, '', 4096),
    startedAt: new Date(0).toISOString(),
    durationMs: 1,
  };
  const exchange = new Exchange(evidence, 429, headers, '');
  const observed = { status: 429 } as ObservedRequest;
  return readRateLimitFields(headers).map((reading) => ({ observed, exchange, reading }));
};

describe('RATELIMIT messages quoting a field', () => {
  it("cut a named throttler's Retry-After as evidence does, hiding a secret across the cut whole", () => {
    for (const before of [1, 10, SECRET.length - 1]) {
      const value = straddling(before);
      const said = saidOf({ 'retry-after-short': value });
      const message = namedRetryAfters(said);
      expect(message, `secret ${before} before the cut`).toContain(
        `the first retry-after-short: ${'.'.repeat(CUT - before)}${REDACTED}…(${value.length} bytes, first ${CUT} kept),`,
      );
      expect(message).not.toContain(SECRET.slice(0, 6));
    }
  });

  it('quote every other field the same way', () => {
    const value = straddling(5);
    const [said] = saidOf({ 'ratelimit-policy': value, ratelimit: '"p";r=0;t=2' });
    const quote = shown(said!);
    expect(quote).toBe(
      `ratelimit-policy: ${'.'.repeat(CUT - 5)}${REDACTED}…(${value.length} bytes, first ${CUT} kept); ratelimit: "p";r=0;t=2`,
    );
    expect(quote).not.toContain(SECRET.slice(0, 6));
  });
});
