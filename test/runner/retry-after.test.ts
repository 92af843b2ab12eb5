// A Retry-After is shown as the server sent it and waited on for a window at most: an hour's (or a 22-digit) value is
// evidence to grade, not a wait that spends the run's deadline.
import { describe, expect, it } from 'vitest';
import type { Exchange } from '../../src/client/index.ts';
import { retryAfterShown, retryWaitMs } from '../../src/runner/probe-result.ts';

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
