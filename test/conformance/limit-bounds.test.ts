// The bounds behind every limit verdict, tried against simulated limiters of each faithful kind: at random window
// phases and round trips (up to a far region's, with jitter), a faithful limiter never trips one; a limit 10 % low
// or missing always does. The simulation replays the probe's own pattern (spend, edge polls, a burst after the
// edge, a fresh burst where a fixed window would begin) with the reference server's limiter algorithms.
import { describe, expect, it } from 'vitest';
import { createLimitState, LIMITER_KINDS, type LimiterKind } from '../../src/reference/limiter-kinds.ts';
import {
  admittedAfterRefusal,
  admittedInSpan,
  allRefused,
  type LimitWindow,
  mayHaveSpentRoom,
  mostAdmittedWithinWindow,
  type Observation,
  refusedBelowLimit,
} from '../../src/runner/probe/limit-bounds.ts';
import { edgeAfter, edgeFreeFrom } from '../../src/runner/probe/window-edge.ts';
import { seededRandom } from '../support/random.ts';

interface Network {
  /** One-way latency and its jitter, ms. */
  readonly latency: number;
  readonly jitter: number;
}

interface Simulated extends Observation {
  readonly at: number;
}

/** A server running one limiter, and a client that only sees when it sent and when the answer came. */
const simulation = (
  kind: LimiterKind,
  enforced: number,
  windowMs: number,
  net: Network,
  next: () => number,
) => {
  const state = createLimitState(kind, enforced, windowMs);
  // A random phase of the server's clock against ours: aligned windows fall anywhere.
  const offset = next() * windowMs * 10;
  const log: Simulated[] = [];
  const leg = () => net.latency + (next() * 2 - 1) * net.jitter;
  const plan = (sent: number, label: string) => {
    const at = sent + Math.max(0.1, leg());
    return { sent, at, answered: at + Math.max(0.1, leg()), label };
  };
  /** Requests handled in the order they reach the server; `stopAfter` ends sending once an admit is answered. */
  const exchange = (requests: ReturnType<typeof plan>[], stopAfter = false): Simulated[] => {
    let firstAdmit = Number.POSITIVE_INFINITY;
    const done: Simulated[] = [];
    for (const r of [...requests].sort((a, b) => a.at - b.at)) {
      if (r.sent > firstAdmit) continue;
      const status = state.admit(r.at + offset) === 0 ? 200 : 429;
      if (status === 200 && stopAfter) firstAdmit = Math.min(firstAdmit, r.answered);
      done.push({ ...r, status, ours: true });
    }
    log.push(...done);
    return done;
  };
  const burst = (at: number, count: number, label: string) =>
    exchange(Array.from({ length: count }, (_, i) => plan(at + i * 0.05, `${label} #${i + 1}`)));
  const lastAnswer = () => Math.max(...log.map((o) => o.answered));
  return { log, burst, exchange, plan, lastAnswer };
};

/** The probe's sequence (src/runner/probe/probe.ts) against one simulated server; returns what the checks grade. */
const probe = (kind: LimiterKind, enforced: number, limit: LimitWindow, net: Network, seed: number) => {
  const next = seededRandom(seed);
  const sim = simulation(kind, enforced, limit.windowMs, net, next);
  const n = limit.count;
  const spend = sim.burst(1000, n + 1, 'spend');
  if (!spend.some((o) => o.status === 429)) spend.push(...sim.burst(sim.lastAnswer(), 2 * n + 1, 'more'));
  const first = [...spend].filter((o) => o.status === 429).sort((a, b) => a.answered - b.answered)[0];
  const fresh: Simulated[][] = [];
  let edgeFree: ReturnType<typeof edgeFreeFrom> | undefined;
  if (first !== undefined) {
    // Polls start once the burst is all answered, as the probe's do.
    const start = Math.max(sim.lastAnswer(), first.sent + next() * limit.windowMs);
    const polls = sim.exchange(
      Array.from({ length: 80 }, (_, i) => sim.plan(start + i * Math.max(10, limit.windowMs / 40), 'poll')),
      true,
    );
    const edge = edgeAfter(first, polls, sim.log, limit);
    const quietAt = sim.lastAnswer() + limit.windowMs + 1;
    edgeFree = edge ? edgeFreeFrom(edge, limit.windowMs, quietAt, net.latency * 2) : undefined;
    fresh.push(sim.burst(edgeFree?.from ?? quietAt, n + 1, 'fresh'));
    const refused = fresh[0]!.filter((o) => o.status === 429).sort((a, b) => a.answered - b.answered)[0];
    if (refused) {
      const nextStart = Math.max(sim.lastAnswer(), refused.sent + next() * limit.windowMs);
      const polls2 = sim.exchange(
        Array.from({ length: 80 }, (_, i) =>
          sim.plan(nextStart + i * Math.max(10, limit.windowMs / 40), 'poll'),
        ),
        true,
      );
      const admitted = polls2.filter((o) => o.status === 200).sort((a, b) => a.answered - b.answered)[0];
      if (admitted) sim.burst(admitted.answered, n + 1, 'after the edge');
    }
  }
  return {
    low: [spend, ...fresh].map((b) => refusedBelowLimit(sim.log, limit, b)),
    over:
      admittedAfterRefusal(sim.log, limit) ??
      admittedInSpan(sim.log, limit, edgeFree) ??
      admittedInSpan(sim.log, limit),
  };
};

const NETWORKS: Record<string, Network> = {
  lan: { latency: 0.3, jitter: 0.2 },
  region: { latency: 40, jitter: 5 },
  far: { latency: 100, jitter: 30 },
};
const LIMITS: LimitWindow[] = [
  { count: 100, windowMs: 1000 },
  { count: 30, windowMs: 2000 },
  { count: 1, windowMs: 2000 },
];
const SEEDS = Array.from({ length: 40 }, (_, i) => i + 1);

describe.each(LIMITER_KINDS)('%s limiter', (kind) => {
  it.each(Object.entries(NETWORKS))('faithful, %s: no bound is ever exceeded', (_, net) => {
    for (const limit of LIMITS) {
      for (const seed of SEEDS) {
        const { low, over } = probe(kind, limit.count, limit, net, seed);
        expect({ seed, limit, low: low.filter(Boolean).length, over: over?.admitted }).toEqual({
          seed,
          limit,
          low: 0,
          over: undefined,
        });
      }
    }
  });

  it.each(Object.entries(NETWORKS))(
    'limit 10 %% low, %s: the fresh burst is refused below the limit',
    (_, net) => {
      const limit = { count: 100, windowMs: 1000 };
      for (const seed of SEEDS) {
        const { low } = probe(kind, 90, limit, net, seed);
        expect({ seed, fresh: low.at(-1)?.atMost }).toEqual({ seed, fresh: expect.any(Number) });
        expect(low.at(-1)!.atMost).toBeLessThan(100);
      }
    },
  );

  it('no limit at all: more admitted in a stretch than any faithful limiter allows', () => {
    const limit = { count: 100, windowMs: 1000 };
    for (const seed of SEEDS) {
      const { over } = probe(kind, Number.POSITIVE_INFINITY, limit, NETWORKS.far!, seed);
      expect(over?.admitted, `seed ${seed}`).toBeGreaterThan(over?.bound ?? Number.POSITIVE_INFINITY);
    }
  });
});

describe('the bounds, one by one', () => {
  const limit = { count: 2, windowMs: 1000 };
  const o = (sent: number, answered: number, status: number): Observation => ({
    sent,
    answered,
    status,
    ours: true,
    label: `${status} at ${sent}`,
  });

  it('(L) a refusal with fewer than N possibly admitted in the window before it is proof', () => {
    const log = [o(0, 10, 200), o(20, 30, 429)];
    expect(refusedBelowLimit(log, limit, log)?.atMost).toBe(1);
    // A request whose outcome is unknown may have counted: no proof.
    const withError = [...log, { ...o(5, 15, 0), status: undefined }];
    expect(refusedBelowLimit(withError, limit, withError)).toBeUndefined();
  });

  it('(U) more than N certainly admitted within a window after a refusal is proof; one ms later is not', () => {
    const full = [o(-100, -90, 200), o(-100, -90, 200), o(0, 10, 429)];
    const inside = [...full, o(10, 20, 200), o(10, 30, 200), o(10, 1000, 200)];
    expect(admittedAfterRefusal(inside, limit)?.admitted).toBe(3);
    const late = [...full, o(10, 20, 200), o(10, 30, 200), o(10, 1001, 200)];
    expect(admittedAfterRefusal(late, limit)).toBeUndefined();
  });

  it('(U) counts from a refusal a faithful limiter can have made only: not one below the limit (L)', () => {
    // A penalty box refuses with nothing admitted, then admits its limit on each side of an edge: 2N within a window
    // of that refusal, never more than N in one of its windows.
    const afterPenalty = [o(0, 10, 429), o(10, 20, 200), o(10, 30, 200), o(500, 510, 200)];
    expect(admittedAfterRefusal(afterPenalty, limit)).toBeUndefined();
  });

  it('(S) 2N+1 within less than a window is proof; an observed edge tightens it', () => {
    const burst = (count: number) => Array.from({ length: count }, () => o(0, 100, 200));
    expect(admittedInSpan(burst(5), limit)?.bound).toBe(4);
    expect(admittedInSpan(burst(4), limit)).toBeUndefined();
    // N + N·0.1 + 1 = 3 where no fixed-window edge can fall.
    expect(admittedInSpan(burst(4), limit, { from: 0, until: 500 })?.bound).toBe(3);
  });

  it('a refusal of a tenant refused every time is no proof: it may be blocked, whatever its limit', () => {
    const blocked = [o(0, 10, 429), o(20, 30, 429)];
    expect(refusedBelowLimit(blocked, limit, blocked)?.atMost).toBe(0);
    expect(allRefused(blocked)).toMatch(/every one of harness's 2 requests here got 429/);
    // One answer other than 429 (a 404 counts towards a limit too) and the refusals speak again.
    expect(allRefused([...blocked, o(40, 50, 404)])).toBeUndefined();
    // Others' requests prove nothing either way.
    expect(allRefused([...blocked, { ...o(40, 50, 200), ours: false }])).toMatch(/looks blocked/);
    expect(allRefused([])).toBeUndefined();
  });

  it('counts the whole limit admitted within one window across an edge poll and the burst after it', () => {
    // A poll admitted, then one of the burst a little later: two within 1000 ms, though no burst held two.
    const log = [o(0, 10, 200), o(500, 510, 200), o(520, 530, 429)];
    expect(mostAdmittedWithinWindow(log, limit)).toBe(2);
    // A window apart, or not ours: one at most.
    expect(mostAdmittedWithinWindow([o(0, 10, 200), o(1005, 1015, 200)], limit)).toBe(1);
    expect(mostAdmittedWithinWindow([o(0, 10, 200), { ...o(20, 30, 200), ours: false }], limit)).toBe(1);
  });

  it('places a fresh burst in the window an observed edge opened when it fits there, else a window later', () => {
    const edge = { after: 100, by: 150 };
    // Starting 300 ms after the edge, a 200 ms burst ends before the window that opened there can (after + W).
    expect(edgeFreeFrom(edge, 1000, 450, 200)).toEqual({ from: 450, until: 1100 });
    // Too wide to fit before that window ends: the next one.
    expect(edgeFreeFrom(edge, 1000, 450, 700)).toEqual({ from: 1150, until: 2100 });
  });

  it('a retry refused after its Retry-After proves nothing when a request in between may have spent the room', () => {
    const refusal = o(0, 10, 429);
    const retry = o(1200, 1210, 429);
    expect(mayHaveSpentRoom([refusal, retry], refusal, retry)).toBeUndefined();
    // A poll that got 401 (its token had just expired) went through the limiter, and so may a 500 or no answer.
    for (const status of [401, 500, undefined]) {
      const between = { ...o(600, 610, 0), status };
      expect(mayHaveSpentRoom([refusal, between, retry], refusal, retry)).toBe(between);
    }
    // Answered before the refusal left, or sent after the retry's answer: handled outside the stretch.
    const before = o(-30, -5, 200);
    const after = o(1300, 1310, 200);
    expect(mayHaveSpentRoom([before, refusal, retry, after], refusal, retry)).toBeUndefined();
    // Still under way when the refusal came back (a poll sent just before it, far away): the server may have handled
    // it after the room came back, earlier than the rounded-up Retry-After said, and admitted it there.
    const underWay = o(8, 420, 200);
    expect(mayHaveSpentRoom([refusal, underWay, retry], refusal, retry)).toBe(underWay);
  });
});
