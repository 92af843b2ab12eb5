// `npx tsx bench/ratelimit-parse.ts [OLD_FIELDS OLD_DIALECTS]`: what reading RateLimit fields costs with one
// 1,000-policy RateLimit-Policy (15 KB) on every answer, in Node (conformance: a probe's answers, each read by the
// retry tests and four checks) and in k6 (fieldNumbers, per answer read). Given the modules of an earlier commit
// (e.g. `git show REV:src/client/ratelimit-fields.ts`, imports adjusted), it times them beside the current ones.
import { resolve } from 'node:path';
import { Bench } from 'tinybench';
import * as dialects from '../core/ratelimit-dialects.ts';
import * as fields from '../src/client/ratelimit-fields.ts';

type Fields = Pick<typeof fields, 'readRateLimitFields'>;
type Dialects = Pick<typeof dialects, 'fieldNumbers'>;

const POLICIES = Array.from({ length: 1000 }, (_, i) => `"p${i}";q=${100 + i};w=60`).join(', ');
/** A probe's answers: each its own headers object, as each exchange has. */
const answers = () =>
  Array.from({ length: 200 }, (_, i) => ({ 'ratelimit-policy': POLICIES, ratelimit: `"p0";r=${i};t=30` }));
/** The retry tests and the four RATELIMIT checks each read every answer: five reads of each. */
const READS = 5;

const versions: [string, Fields, Dialects][] = [['now', fields, dialects]];
const [oldFields, oldDialects] = process.argv.slice(2);
if (oldFields !== undefined && oldDialects !== undefined) {
  versions.unshift([
    'before',
    (await import(resolve(oldFields))) as Fields,
    (await import(resolve(oldDialects))) as Dialects,
  ]);
}

const bench = new Bench({ time: 1000, warmupTime: 200 });
for (const [label, node, k6] of versions) {
  bench.add(`${label}: Node, 200 answers read ${READS} times each`, () => {
    for (const headers of answers()) for (let i = 0; i < READS; i++) node.readRateLimitFields(headers);
  });
  const headers = answers()[0]!;
  bench.add(`${label}: k6 fieldNumbers, one answer`, () => {
    k6.fieldNumbers(headers);
  });
}
await bench.run();
console.log('| case | mean | ops/s |\n|---|---|---|');
for (const task of bench.tasks) {
  const result = task.result as { latency?: { mean: number }; throughput?: { mean: number } };
  const meanMs = result.latency?.mean ?? Number.NaN;
  console.log(
    `| ${task.name} | ${meanMs < 1 ? `${(meanMs * 1000).toFixed(1)} µs` : `${meanMs.toFixed(2)} ms`} | ${Math.round(result.throughput?.mean ?? 1000 / meanMs)} |`,
  );
}
