// `npm run bench`: prints the figures and writes reports/bench/*.json. Figures are ratios or per-operation costs
// measured side by side in one run; the machine is shared, so absolute numbers vary from run to run.

import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type ConformanceWall, measureCommit, measureConformanceWall } from './conformance-wall.ts';
import { measureWall } from './load-wall.ts';
import { runMicro } from './micro.ts';
import { runThroughput } from './throughput.ts';

const out = resolve(import.meta.dirname, '..', 'reports', 'bench');
mkdirSync(out, { recursive: true });
const write = (name: string, data: unknown) => {
  const path = join(out, name);
  writeFileSync(
    path,
    `${JSON.stringify({ measuredAt: new Date().toISOString(), ...(data as object) }, null, 2)}\n`,
  );
  return path;
};

console.log('micro-benchmarks (tinybench)');
const micro = await runMicro();
console.table(
  micro.map((m) => ({ name: m.name, 'ops/s': Math.round(m.opsPerSecond), 'mean ns': Math.round(m.meanNs) })),
);
console.log(`wrote ${write('micro.json', { results: micro })}`);

// Twelve-second minutes keep the per-minute chains the longest, as real minutes do, at a fifth of the wait.
console.log('\nharness load --scenario all: wall time against the longest probe chain (12 s minutes)');
const wall = await measureWall(12_000);
console.table([
  {
    'planned s': (wall.plannedMs / 1000).toFixed(1),
    'longest chain s': (wall.longestChainMs / 1000).toFixed(1),
    'wall s': (wall.wallMs / 1000).toFixed(1),
    'wall / chain': wall.ratio.toFixed(2),
    grades: Object.entries(wall.grades)
      .map(([g, n]) => `${n} ${g}`)
      .join(', '),
  },
]);
console.log(`wrote ${write('load-wall.json', wall)} (real minutes: npm run bench:load-all)`);

// The previous probe: HARNESS_BENCH_BASE, else where this branch left main.
const CONFORMANCE_MINUTE_MS = 20_000;
const base =
  process.env.HARNESS_BENCH_BASE ??
  execFileSync('git', ['merge-base', 'HEAD', 'main'], { cwd: import.meta.dirname, encoding: 'utf8' }).trim();
console.log(
  `\nharness conformance against a faithful server: wall time over the longest window (${CONFORMANCE_MINUTE_MS / 1000} s minutes), this code and ${base.slice(0, 10)}'s`,
);
const networks = ['loopback', 'far'] as const;
const current: ConformanceWall[] = [];
for (const network of networks) current.push(await measureConformanceWall(CONFORMANCE_MINUTE_MS, network));
const previous = measureCommit(base, CONFORMANCE_MINUTE_MS, networks);
const gradesOf = (w: ConformanceWall) =>
  `${w.fails.length} FAIL, ${w.inconclusive.length} INCONCLUSIVE${w.inconclusive.length > 0 ? ` (${w.inconclusive.join(' ')})` : ''}`;
console.table(
  networks.map((network, i) => ({
    network: network === 'far' ? 'far (200 ms round trips)' : network,
    'wall / window': current[i]!.ratio.toFixed(2),
    [`${previous.commit} wall / window`]: previous.walls[i]!.ratio.toFixed(2),
    target: network === 'far' ? '<= 2.2' : '<= 2.0',
    grades: gradesOf(current[i]!),
    [`${previous.commit} grades`]: gradesOf(previous.walls[i]!),
  })),
);
console.log(`wrote ${write('conformance-wall.json', { current, previous })}`);

console.log('\nserver throughput: authorised POST /event/transaction/v3, 32 connections, alternating rounds');
const throughput = await runThroughput();
console.table(
  throughput.reference.map((r, i) => ({
    round: i + 1,
    'reference req/s': Math.round(r.perSecond),
    'bare node:http req/s': Math.round(throughput.bare[i]!.perSecond),
    'reference req/CPU-s': Math.round(r.requestsPerCpuSecond),
    'bare req/CPU-s': Math.round(throughput.bare[i]!.requestsPerCpuSecond),
  })),
);
console.log(
  `reference / bare throughput ratio: ${throughput.ratio.toFixed(2)} (target >= 0.60; the shared load generator bounds both)`,
);
console.log(
  `reference / bare requests per server CPU second: ${throughput.cpuRatio.toFixed(2)} (the capacity ratio)`,
);
const { burst } = throughput;
console.log(
  `client burst: ${burst.requests} authorised requests fired at once and collected in ${burst.meanMs.toFixed(0)} ms mean, ${burst.p99Ms.toFixed(0)} ms p99 (${burst.samples} bursts; target well under 1000 ms)`,
);
console.log(`wrote ${write('throughput.json', throughput)}`);
