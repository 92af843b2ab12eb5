// The window-length proof (src/runner/window-length.ts): a window-end burst shows the length only when enough of
// its answers come within a window of the refusal before the edge; one answered later shows nothing, and the probe
// sends it again (probe.ts) rather than PASS on it.
import { describe, expect, it } from 'vitest';
import type { BucketLimit } from '../../../src/profile/target.ts';
import type { LoggedRequest } from '../../../src/runner/bucket-log.ts';
import { lengthShown } from '../../../src/runner/probe/window-length.ts';

const LIMIT: BucketLimit = { bucket: 'rules-execute', count: 3, per: 'minute', windowMs: 1000 };

const request = (label: string, sent: number, answered: number, status: number): LoggedRequest => ({
  sent,
  answered,
  status,
  tenant: 'tenant-a',
  clientId: 'client-a',
  path: '/rules/execute',
  label,
  exchange: undefined,
});

const observed = (requests: readonly LoggedRequest[]) =>
  requests.map((r) => ({ ...r, ours: true, request: r }));

/** A refusal at 0, an admitted edge poll answered at 100, and a window-end burst of four sent at `sent`. */
const run = (sent: number, answeredAfter: number) => {
  const after = request('spend #4', 0, 20, 429);
  const poll = request('edge poll #1', 60, 100, 200);
  const burst = [0, 1, 2, 3].map((i) => request(`window end #${i + 1}`, sent, sent + answeredAfter, 429));
  return { after, burst, log: observed([after, poll, ...burst]) };
};

describe('what a window-end burst shows of the window length', () => {
  it('shows a length from the first admitted answer to the burst when its answers come within the window', () => {
    const { after, burst, log } = run(850, 100);
    expect(lengthShown(LIMIT, after, burst, log)).toMatchObject({
      shown: true,
      admitted: 1,
      inTime: 4,
      least: 750,
    });
  });

  it('shows nothing when too few of its answers come within a window of the refusal', () => {
    const { after, burst, log } = run(950, 100);
    expect(lengthShown(LIMIT, after, burst, log)).toEqual({ shown: false, inTime: 0 });
  });

  it('shows nothing when the burst went before the admitted request was answered', () => {
    const { after, burst, log } = run(90, 100);
    expect(lengthShown(LIMIT, after, burst, log)).toEqual({ shown: false, inTime: 4, early: true });
  });

  it('shows nothing without an admitted request after the refusal to measure from', () => {
    const { after, burst } = run(850, 100);
    expect(lengthShown(LIMIT, after, burst, observed([after, ...burst])).shown).toBe(false);
  });
});
