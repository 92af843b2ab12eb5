// Which answers of another status LIMIT-ENFORCED-* takes as a refusal in place of a 429 (conformance/refusal-status.ts):
// only past the limit, among 429s for the same traffic; the limiter's for sure with a Retry-After or drawn again.
import { describe, expect, it } from 'vitest';
import { countedStatuses, otherRefusals } from '../../conformance/refusal-status.ts';
import type { LoggedRequest, ObservedRequest } from '../../src/runner/bucket-log.ts';

const limit = { count: 3, windowMs: 1000 };

/** A request of ours sent at `sent` (ms), answered 5 ms later with `status`, and a Retry-After if given. */
const request = (label: string, sent: number, status: number, retryAfter?: string): ObservedRequest => {
  const headers = retryAfter === undefined ? {} : { 'retry-after': retryAfter };
  const logged = {
    label,
    sent,
    answered: sent + 5,
    status,
    exchange: { status, headers },
  } as unknown as LoggedRequest;
  return { label, sent, answered: sent + 5, status, ours: true, request: logged };
};

/** A spend burst of `answers` at 0 ms: the limit's three admitted first. */
const spend = (...answers: [number, string?][]) => [
  request('spend #1', 0, 200),
  request('spend #2', 0, 200),
  request('spend #3', 0, 200),
  ...answers.map(([status, retryAfter], i) => request(`spend #${i + 4}`, 0, status, retryAfter)),
];

describe('otherRefusals', () => {
  it('takes a 503 with a Retry-After past the limit, among 429s of its burst, as the limiter’s', () => {
    const found = otherRefusals(spend([429, '1'], [503, '1']), limit);
    expect(found).toMatchObject({ withRetryAfter: 1, refusals: 1, limiters: true });
    expect(found?.answers.map((o) => o.label)).toEqual(['spend #5']);
  });

  it('takes a bare 503 as the limiter’s only when the pattern comes again; once, it is named, not decided', () => {
    expect(otherRefusals(spend([429, '1'], [503]), limit)?.limiters).toBe(false);
    const twice = [
      ...spend([429, '1'], [503]),
      request('edge poll #1', 100, 429, '1'),
      request('edge poll #2', 200, 503),
    ];
    expect(otherRefusals(twice, limit)).toMatchObject({ limiters: true, withRetryAfter: 0 });
    expect(otherRefusals(twice, limit)?.answers).toHaveLength(2);
  });

  it('leaves a 5xx outside that pattern as it was: before the limit was reached, or where no 429 came', () => {
    // Two admitted, then a 503 and a 429: fewer than the limit admitted around the 503.
    const early = [
      request('spend #1', 0, 200),
      request('spend #2', 0, 200),
      request('spend #3', 0, 503, '1'),
      request('spend #4', 0, 429, '1'),
    ];
    expect(otherRefusals(early, limit)).toBeUndefined();
    // Past the limit, but its traffic (a variant) drew no 429; and a window later nothing admitted is around it.
    expect(
      otherRefusals([...spend([429, '1']), request('other tenant #1', 10, 503, '1')], limit),
    ).toBeUndefined();
    expect(
      otherRefusals([...spend([429, '1']), request('spend, again #1', 3000, 503, '1')], limit),
    ).toBeUndefined();
  });

  it('never counts a 401 or 403 (the token checks grade those), nor a request with no answer', () => {
    const auth = spend([429, '1'], [401], [403]);
    expect(otherRefusals(auth, limit)).toBeUndefined();
  });
});

describe('countedStatuses', () => {
  it('counts each status in the order first seen, a request with no answer as such', () => {
    expect(
      countedStatuses([{ status: 503 }, {}, { status: 429 }, { status: 503 }, { status: undefined }]),
    ).toBe('2× 503, 2× no answer, 1× 429');
    expect(countedStatuses([])).toBe('');
  });
});
