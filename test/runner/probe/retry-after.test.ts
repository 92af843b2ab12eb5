// A Retry-After is shown as the server sent it and waited on for a window at most: an hour's (or a 22-digit) value is
// evidence to grade, not a wait that spends the run's deadline.
import { describe, expect, it } from 'vitest';
import type { Exchange } from '../../../src/client/index.ts';
import type { LoggedRequest, ObservedRequest } from '../../../src/runner/bucket-log.ts';
import { retryAfterShown, retryWaitMs } from '../../../src/runner/probe/probe-result.ts';
import { retryAfterHonour } from '../../../src/runner/probe/retry-evidence.ts';

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

  /** A minute of 2 s: tolerance 200 ms, and a Retry-After of 1 s can be a faithful wait rounded down. */
  const scaled = { bucket: 'rules-schedule', count: 120, per: 'minute', windowMs: 2000 } as const;
  // Sent at 0, answered at 5: its promise of 1 s is tested from 1015 (5 ms of timers and its 5 ms round trip after
  // it), and again past a rounding, from 2015.
  const refusal = request('spend #121', 0, 429, '1');

  it('takes an admit as honouring a Retry-After only when it went within the tolerance of its passing', () => {
    const timely = retryAfterHonour([refusal, request('edge poll #1', 1020, 200)], scaled);
    expect(timely.honoured?.retry.label).toBe('edge poll #1');
    expect(timely.late).toBeUndefined();
    // Sent 300 ms late (a starved runner): by then a Retry-After too short could have passed as well.
    const late = retryAfterHonour([refusal, request('edge poll #1', 1320, 200)], scaled);
    expect(late.honoured).toBeUndefined();
    expect(late.late?.retry.label).toBe('edge poll #1');
  });

  it('never takes an admit after Retry-After: 0 as honouring it: a wait of nothing proves nothing', () => {
    const zero = request('spend #501', 0, 429, '0');
    const admitted = retryAfterHonour([zero, request('edge poll #1', 20, 200)], second);
    expect([admitted.honoured, admitted.late, admitted.waitable]).toEqual([undefined, undefined, 1]);
    // Refused past the tolerance, it is broken as any other.
    const refused = retryAfterHonour([zero, request('edge poll #1', 405, 429, '0')], second);
    expect(refused.broken?.retry.label).toBe('edge poll #1');
  });

  it('takes a refusal within a second of the promise as short (WARN), and one past a second as broken (FAIL)', () => {
    const short = retryAfterHonour([refusal, request('edge poll #1', 1020, 429, '1')], scaled);
    expect([short.short?.retry.label, short.broken]).toEqual(['edge poll #1', undefined]);
    // Within the round trip the network explains: no verdict either way.
    const early = retryAfterHonour([refusal, request('edge poll #1', 1010, 429, '1')], scaled);
    expect([early.short, early.broken]).toEqual([undefined, undefined]);
    const broken = retryAfterHonour(
      [refusal, request('edge poll #1', 1020, 429, '1'), request('edge poll #2', 2020, 429, '1')],
      scaled,
    );
    expect([broken.short?.retry.label, broken.broken?.retry.label]).toEqual(['edge poll #1', 'edge poll #2']);
    // Admitted past the rounding: short, not broken.
    const back = retryAfterHonour(
      [refusal, request('edge poll #1', 1020, 429, '1'), request('edge poll #2', 2020, 200)],
      scaled,
    );
    expect([back.short?.retry.label, back.broken]).toEqual(['edge poll #1', undefined]);
  });

  it('never calls a per-second limit short by a rounding: its faithful waits are under a second', () => {
    const perSecond = request('spend #501', 0, 429, '1');
    const refused = retryAfterHonour([perSecond, request('edge poll #1', 1020, 429, '1')], second);
    expect([refused.short, refused.broken]).toEqual([undefined, undefined]);
  });
});
