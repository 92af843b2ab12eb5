// `npm run bench:load`: the load part of the accuracy matrix, every cell of condition × limiter × server for
// `harness load --scenario transactions` (bench/load-accuracy.ts), one after another. It prints the table and
// writes reports/bench/load-accuracy.json. Arguments narrow it: `-- far token-bucket low` runs those cells only.
// The transaction limit is 200/s unless HARNESS_BENCH_LIMIT says otherwise: twice 500/s through Toxiproxy beside
// the server is more than a busy two-core runner can carry without dropping iterations.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { LIMITER_KINDS } from '../src/reference/limiter-kinds.ts';
import { CONDITIONS, type NetworkCondition } from '../src/testbed/toxiproxy.ts';
import { type AccuracyCell, cellRow, measureCell, type ServerCase } from './load-accuracy.ts';

const SERVERS: readonly ServerCase[] = ['faithful', 'low', 'unenforced'];
const wanted = process.argv.slice(2);
const pick = <T extends string>(all: readonly T[]) => {
  const chosen = all.filter((v) => wanted.includes(v));
  return chosen.length > 0 ? chosen : all;
};
const limit = Number(process.env.HARNESS_BENCH_LIMIT ?? '200');

const cells: AccuracyCell[] = [];
for (const condition of pick(Object.keys(CONDITIONS) as NetworkCondition[])) {
  for (const limiter of pick(LIMITER_KINDS)) {
    for (const server of pick(SERVERS)) {
      const cell = await measureCell(condition, limiter, server, limit);
      cells.push(cell);
      console.log(JSON.stringify(cellRow(cell)));
    }
  }
}
console.table(cells.map(cellRow));
const out = resolve(import.meta.dirname, '..', 'reports', 'bench');
mkdirSync(out, { recursive: true });
const path = join(out, 'load-accuracy.json');
writeFileSync(
  path,
  `${JSON.stringify({ measuredAt: new Date().toISOString(), limitPerSecond: limit, cells }, null, 2)}\n`,
);
console.log(`wrote ${path}`);
