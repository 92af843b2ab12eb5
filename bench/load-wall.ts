// How long `harness load --scenario all` takes against the reference server, next to its longest probe chain (the
// phases of one bucket, one after another, which nothing can shorten): the ratio is what running buckets side by
// side and harness's own start-up and judging cost. Every phase's grade comes along, since a fast run that is
// INCONCLUSIVE is no gain.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findK6 } from '../src/k6-driver/k6.ts';
import { planProbes } from '../src/k6-driver/plan.ts';
import { runLoad } from '../src/k6-driver/run.ts';
import { resolveTarget } from '../src/profile/target.ts';
import { startReferenceServer } from '../src/reference/index.ts';

export interface WallTime {
  readonly minuteMs: number;
  /** The end of the last phase in the plan. */
  readonly plannedMs: number;
  /** The longest chain of one limiter's phases, gaps included. */
  readonly longestChainMs: number;
  readonly wallMs: number;
  readonly ratio: number;
  readonly grades: Readonly<Record<string, number>>;
}

export const measureWall = async (minuteMs: number): Promise<WallTime> => {
  const server = await startReferenceServer({ minuteMs, limiter: 'aligned' });
  try {
    const profile = server.profile();
    const { probes, totalMs } = planProbes(resolveTarget(profile), { scenarios: ['all'] });
    const chains = new Map<string, { start: number; end: number }>();
    for (const phase of probes.flatMap((p) => p.phases)) {
      const chain = chains.get(phase.limiterKey) ?? { start: phase.startMs, end: 0 };
      chains.set(phase.limiterKey, {
        start: Math.min(chain.start, phase.startMs),
        end: Math.max(chain.end, phase.startMs + phase.durationMs),
      });
    }
    const longestChainMs = Math.max(...[...chains.values()].map((c) => c.end - c.start));
    const started = performance.now();
    const finished = await runLoad({
      k6: findK6(),
      profile,
      plan: { scenarios: ['all'] },
      instances: 1,
      dir: mkdtempSync(join(tmpdir(), 'harness-wall-')),
      label: 'all',
    });
    const wallMs = performance.now() - started;
    const grades: Record<string, number> = {};
    for (const p of finished.phases) grades[p.grade] = (grades[p.grade] ?? 0) + 1;
    return { minuteMs, plannedMs: totalMs, longestChainMs, wallMs, ratio: wallMs / longestChainMs, grades };
  } finally {
    await server.close();
  }
};
