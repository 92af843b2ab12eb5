// How far apart runners on different machines may have started, in the target's time. Each runner counts its slots
// from the common start by its own clock, so a pod whose clock is off shifts all its slots, and the merge would add
// counts of different windows as if they were one. Runners on one host share a clock; runners on different hosts are
// compared through the one clock they all reach: the target's `Date` header (RFC 9110 §6.6.1, whole seconds).

/** What a runner knows of its clock; offset = the target's clock minus the runner's (ms). */
export interface RunnerClock {
  /** Runners naming one host share one clock (HARNESS_CLOCK_HOST, which the CLI sets); '' is a host of its own. */
  readonly host: string;
  /** Bounds on the offset from every answer's Date; absent when no answer carried one. */
  readonly offsetMs?: OffsetBounds;
}

export interface OffsetBounds {
  readonly lo: number;
  readonly hi: number;
}

/**
 * How stale a target's Date may be: servers stamp it from a clock they cache for an event loop's turn (Node, nginx).
 * A Date staler than this shows: its bounds contradict the others' (lo > hi), and then no clock is compared.
 */
export const DATE_STALENESS_MS = 25;

/**
 * The offset bounds one answer gives: the target stamped `Date` (its clock then in [date, date + 1 s), or up to
 * DATE_STALENESS_MS later) somewhere between the runner's send and answer times, which k6 reads in whole ms.
 */
export const answerBounds = (dateMs: number, sentMs: number, answeredMs: number): OffsetBounds => ({
  lo: dateMs - answeredMs - 1,
  hi: dateMs + 1000 + DATE_STALENESS_MS - sentMs,
});

/** How far apart the runners' first slots may lie; `ms` absent when nothing bounds it. */
export interface StartSpread {
  readonly ms?: number;
  /** The arithmetic, for the verdict's message. */
  readonly why: string;
}

interface Runner {
  readonly source: string;
  readonly clock?: RunnerClock;
}

interface HostClock {
  readonly sources: string[];
  bounds?: OffsetBounds;
  unknown: boolean;
}

/** Each runner's host, whose offset every runner on it saw alike, so their bounds intersect. */
const hostClocks = (runners: readonly Runner[]): HostClock[] => {
  const hosts = new Map<string, HostClock>();
  return runners.map((r, i) => {
    const key = r.clock?.host ? `host ${r.clock.host}` : `runner ${i}`;
    const host = hosts.get(key) ?? { sources: [], unknown: false };
    hosts.set(key, host);
    host.sources.push(r.source);
    const seen = r.clock?.offsetMs;
    if (seen === undefined) host.unknown = true;
    else
      host.bounds =
        host.bounds === undefined
          ? seen
          : { lo: Math.max(host.bounds.lo, seen.lo), hi: Math.min(host.bounds.hi, seen.hi) };
    return host;
  });
};

const signed = (ms: number) => `${ms >= 0 ? '+' : ''}${Math.round(ms)}`;
const range = (b: OffsetBounds) => `${signed(b.lo)} to ${signed(b.hi)}`;

/**
 * The most runner a's first slot may lie after runner b's in the target's time, over all pairs: their start
 * offsets by their own clocks (`startOffsetsMs`, runners.ts) plus the most their clocks may differ by. Undefined
 * when every runner shares one host's clock: then the start offsets alone are the spread.
 */
export const startSpread = (
  runners: readonly Runner[],
  startOffsetsMs: readonly number[],
): StartSpread | undefined => {
  const hostOf = hostClocks(runners);
  const hosts = [...new Set(hostOf)];
  if (hosts.length < 2) return undefined;
  const unbounded = hosts.find((h) => h.unknown);
  if (unbounded)
    return {
      why: `${unbounded.sources.join(', ')} shares no host's clock with the others and recorded no Date header of the target's, so nothing compares its clock with theirs`,
    };
  const torn = hosts.find((h) => h.bounds!.lo > h.bounds!.hi);
  if (torn)
    return {
      why: `the target's Date headers contradict each other at ${torn.sources.join(', ')} (they put the target's clock at least ${signed(torn.bounds!.lo)} ms and at most ${signed(torn.bounds!.hi)} ms from the runner's: several clocks answer, or a Date over ${DATE_STALENESS_MS} ms stale), so they compare no clocks`,
    };
  let worst: { ms: number; why: string } = { ms: -Infinity, why: '' };
  for (const [i, a] of runners.entries()) {
    for (const [j, b] of runners.entries()) {
      const [hostA, hostB] = [hostOf[i]!, hostOf[j]!];
      const startGap = startOffsetsMs[i]! - startOffsetsMs[j]!;
      const ms = startGap + (hostA === hostB ? 0 : hostA.bounds!.hi - hostB.bounds!.lo);
      if (i === j || ms <= worst.ms) continue;
      const late = `${a.source} may have started ${Math.round(ms)} ms after ${b.source}`;
      worst = {
        ms,
        why:
          hostA === hostB
            ? `${late}: on one host's clock, ${Math.round(startGap)} ms later`
            : `by the target's Date headers, the target's clock is ${range(hostA.bounds!)} ms from ${a.source}'s and ${range(hostB.bounds!)} ms from ${b.source}'s, so ${late}: ${Math.round(startGap)} ms later by their own clocks, plus up to ${Math.round(hostA.bounds!.hi)} - (${Math.round(hostB.bounds!.lo)}) ms between the clocks`,
      };
    }
  }
  return { ms: Math.max(0, worst.ms), why: worst.why };
};
