// A Retry-After is shown as the server sent it and waited on for a window at most: an hour's (or a 22-digit) value is
// evidence to grade, not a wait that spends the run's deadline.
import { describe, expect, it } from 'vitest';
import type { Exchange } from '../../src/client/index.ts';
import type { LoggedRequest, ObservedRequest } from '../../src/runner/bucket-log.ts';
import { retryAfterShown, retryWaitMs } from '../../src/runner/probe-result.ts';
import { retryAfterHonour } from '../../src/runner/retry-evidence.ts';

const answered = (retryAfter?: string) =>
  ({ headers: retryAfter === undefined ? {} : { 'retry-after': retryAfter } }) as unknown as Exchange;
const minute = { bucket: 'rules-schedule', count: 120, per: 'minute', windowMs: 60_000 } as const;

describe('a Retry-After', () => {
  it('is shown as sent, never as Infinity or in exponent notation; a value past 40 characters is cut', () => {
    expect(retryAfterShown(answered('3600000000000000000000'))).toBe('3600000000000000000000');
    expect(retryAfterShown(answered(' 30 '))).toBe('30');
    expect(retryAfterShown(answered('9'.repeat(400)))).toBe(`${'9'.repeat(40)}… (400 characters)`);
    expect(retryAfterShown(answered())).toBe('none');
  });

  it('is waited on for a window and the tolerance at most, a window when it gives no integer seconds', () => {
    expect(retryWaitMs(answered('30'), minute)).toBe(30_000);
    expect(retryWaitMs(answered('3600'), minute)).toBe(61_000);
    expect(retryWaitMs(answered('9'.repeat(400)), minute)).toBe(61_000);
    expect(retryWaitMs(answered('Wed, 21 Oct 2026 07:28:00 GMT'), minute)).toBe(60_000);
    expect(retryWaitMs(answered(), minute)).toBe(60_000);
  });
});

describe('retryAfterHonour', () => {
  const second = { bucket: 'transaction-event', count: 500, per: 'second', windowMs: 1000 } as const;
  /** A request of ours sent and answered at these times (ms), with that status and Retry-After. */
  const request = (label: string, sent: number, status: number, retryAfter?: string): ObservedRequest => {
    const exchange = { status, headers: retryAfter === undefined ? {} : { 'retry-after': retryAfter } };
    const logged = { label, sent, answered: sent + 5, status, exchange } as unknown as LoggedRequest;
    return { label, sent, answered: sent + 5, status, ours: true, request: logged };
  };

  it('takes an admit as honouring a Retry-After only when it went within the tolerance of its passing', () => {
    const refusal = request('spend #501', 0, 429, '0');
    // Retry-After 0 s, tolerance 100 ms: the test is due 105 ms after the 429 went out.
    const timely = retryAfterHonour([refusal, request('edge poll #1', 150, 200)], second);
    expect(timely.honoured?.retry.label).toBe('edge poll #1');
    expect(timely.late).toBeUndefined();
    // Sent 300 ms late (a starved runner): by then a Retry-After too short could have passed as well.
    const late = retryAfterHonour([refusal, request('edge poll #1', 405, 200)], second);
    expect(late.honoured).toBeUndefined();
    expect(late.late?.retry.label).toBe('edge poll #1');
    // Refused however late: still a Retry-After broken.
    const refused = retryAfterHonour([refusal, request('edge poll #1', 405, 429, '0')], second);
    expect(refused.broken?.retry.label).toBe('edge poll #1');
  });
});
