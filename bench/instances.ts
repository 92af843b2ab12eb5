// `npm run bench:instances`: what splitting the schedule buys, and what the merge costs. (1) `harness load
// --scenario transactions` at SPEC.md's 500/s against the embedded server, with one k6 process and with four, one
// after the other in one run: each phase's grade, the limit it read and the iterations k6 dropped. (2) The time
// `harness load merge` takes on four runners' summaries of `--scenario all`. Writes reports/bench/instances.json.
//
// The summaries for (2) come from the embedded server's 2 s minutes: a phase lasts as many windows, and a window
// holds as many slots, at any window length, so the summaries are as large as at real timings (60 s minutes).
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { runLoadMergeCommand } from '../src/cli/load-merge.ts';
import { findK6, k6Version } from '../src/k6-driver/k6.ts';
import { runLoad, runnerFile } from '../src/k6-driver/run.ts';
import { startReferenceServer } from '../src/reference/index.ts';
import { harnessVersion } from '../src/version.ts';

const k6 = findK6();
const versions = { harness: harnessVersion(), k6: k6Version(k6) };
const folder = () => mkdtempSync(join(tmpdir(), 'harness-instances-'));

const loadRun = async (scenario: string, instances: number, minuteMs: number) => {
  const server = await startReferenceServer({ minuteMs, limiter: 'aligned' });
  try {
    const dir = folder();
    const started = performance.now();
    const finished = await runLoad({
      k6,
      profile: server.profile(),
      plan: { scenarios: [scenario] },
      instances,
      dir,
      label: scenario,
      versions,
    });
    return { finished, dir, wallMs: performance.now() - started };
  } finally {
    await server.close();
  }
};

const rows: Record<string, unknown>[] = [];
for (const instances of [1, 4]) {
  const { finished, wallMs } = await loadRun('transactions', instances, 60_000);
  for (const p of finished.phases) {
    rows.push({
      instances,
      phase: p.phase,
      grade: p.grade,
      'read / window': p.enforcedPerWindow?.toFixed(2) ?? '-',
      'error %': p.errorPercent?.toFixed(2) ?? '-',
      dropped: p.dropped,
      'wall s': (wallMs / 1000).toFixed(1),
      // What harness fell short of, when it did: an INCONCLUSIVE is no reading of the server.
      why: p.grade === 'INCONCLUSIVE' ? p.message.replace(/^harness could not offer [\d.]+\/s: /, '') : '',
    });
  }
}
console.log('harness load --scenario transactions at 500/s, embedded server, --instances 1 and 4');
console.table(rows);

console.log(
  '\nharness load merge: four runners of --scenario all (2 s minutes, as many slots as real timings)',
);
const all = await loadRun('all', 4, 2000);
const files = [0, 1, 2, 3].map((i) => runnerFile(all.dir, i));
const started = performance.now();
const merged = await runLoadMergeCommand(files, { reportDir: folder() });
const mergeMs = performance.now() - started;
const merge = { phases: all.finished.phases.length, mergeMs: Math.round(mergeMs), exitCode: merged.exitCode };
console.table([merge]);

const out = resolve(import.meta.dirname, '..', 'reports', 'bench');
mkdirSync(out, { recursive: true });
const path = join(out, 'instances.json');
writeFileSync(
  path,
  `${JSON.stringify({ measuredAt: new Date().toISOString(), transactions: rows, mergeAll: merge }, null, 2)}\n`,
);
console.log(`wrote ${path}`);
