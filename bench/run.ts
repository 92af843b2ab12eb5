// `npm run bench`: prints the figures and writes reports/bench/*.json. Figures are ratios or per-operation costs
// measured side by side in one run; the machine is shared, so absolute numbers vary from run to run.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
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
