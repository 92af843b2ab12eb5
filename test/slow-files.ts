// The slow test files, in one list: where each runs and how long it took (seconds in a full run, to keep the order
// honest). vitest.config.ts takes its `long` and `long-alone` projects from it, and the SlowFirst sequencer its
// order, so a file moved to `test:long` cannot keep a rank in `npm test` (or lose one) by being named in only one.
import { existsSync } from 'node:fs';
import { join } from 'node:path';

/**
 * `fast`: `npm test`. `long`: `npm run test:long`, two at a time: the files whose k6 and whole harness runs against
 * real-time windows (behind Toxiproxy, through TLS and a proxy, or interrupted by signals) take the better part of a
 * minute or more. `long-alone`: `npm run test:long`, one at a time: those whose verdicts turn on how narrow a burst
 * is behind 200 ms round trips (Toxiproxy; starved of CPU by the files beside them, a burst widens and a 10 % low
 * limit comes out INCONCLUSIVE, sound but not what they assert), and those that starve the files beside them.
 */
type Project = 'fast' | 'long' | 'long-alone';

interface SlowFile {
  readonly file: string;
  readonly project: Project;
  /** Measured in a full run; a file without it starts in vitest's own order, after every measured one. */
  readonly seconds?: number;
}

const SLOW_FILES: readonly SlowFile[] = [
  // A conformance run and a replay for each of 21 limit faults.
  { file: 'test/cli/replay-faults.test.ts', project: 'long', seconds: 180 },
  { file: 'test/load/limiters.test.ts', project: 'long', seconds: 178 },
  // Two certify runs side by side, the longest file of npm test when it took 480 s on 2026-11-27.
  { file: 'test/cli/certify.test.ts', project: 'long-alone', seconds: 121 },
  { file: 'test/network/network.test.ts', project: 'long', seconds: 89 },
  { file: 'test/load/load.test.ts', project: 'long', seconds: 86 },
  { file: 'test/cli/no-verdict.test.ts', project: 'long', seconds: 65 },
  { file: 'test/load/bounds.test.ts', project: 'long', seconds: 56 },
  // Thirteen probes of rules-schedule through real rate-limiting libraries run as gateways.
  { file: 'test/conformance/ratelimit-libraries.test.ts', project: 'long', seconds: 52 },
  { file: 'test/cli/signals.test.ts', project: 'long', seconds: 50 },
  // Every fault under every limiter kind, on virtual time: CPU, not waiting.
  { file: 'test/conformance/faults.test.ts', project: 'fast', seconds: 48 },
  // A sample of those cells on real time too, beside their simulated runs.
  { file: 'test/conformance/faults-real-time.test.ts', project: 'long', seconds: 40 },
  { file: 'test/package/pack.test.ts', project: 'fast', seconds: 39 },
  { file: 'test/load/token-failure.test.ts', project: 'long', seconds: 37 },
  // Two k6 runs against token answers that are decompression bombs.
  { file: 'test/load/token-bomb.test.ts', project: 'long', seconds: 37 },
  { file: 'test/conformance/faithful.test.ts', project: 'fast', seconds: 37 },
  { file: 'test/cli/hostile-inputs.test.ts', project: 'fast', seconds: 34 },
  // A k6 run to its end, to compare its checkpoint with its summary.
  { file: 'test/k6-driver/checkpoint.test.ts', project: 'long' },
  // The GitHub Action's steps running harness load (k6, three phases).
  { file: 'test/action/load.test.ts', project: 'long', seconds: 35 },
  { file: 'test/conformance/network.test.ts', project: 'long-alone' },
  { file: 'test/load/network.test.ts', project: 'long-alone' },
  // A whole certify run (conformance, then k6 through every scenario): beside two other files it starved k6 and the
  // probes of the files next to it (INCONCLUSIVE where they assert a verdict) in two fresh-clone runs.
  { file: 'test/cli/certify-lost-reports.test.ts', project: 'long-alone' },
  // The container image: k6 compiled inside it takes both cores for minutes, then three runs of harness inside it.
  { file: 'test/image/image.test.ts', project: 'long-alone', seconds: 117 },
];

const root = join(import.meta.dirname, '..');
// A renamed file would silently leave its project (or its rank).
const gone = SLOW_FILES.filter(({ file }) => !existsSync(join(root, file)));
if (gone.length > 0)
  throw new Error(
    `test/slow-files.ts names test files that are gone: ${gone.map(({ file }) => file).join(', ')}`,
  );

export const filesOf = (project: Exclude<Project, 'fast'>): string[] =>
  SLOW_FILES.filter((slow) => slow.project === project).map(({ file }) => file);

/** The measured files, longest first: the order the sequencer starts them in. */
export const LONGEST_FIRST: readonly string[] = SLOW_FILES.flatMap(({ file, seconds }) =>
  seconds === undefined ? [] : [{ file, seconds }],
)
  .sort((a, b) => b.seconds - a.seconds)
  .map(({ file }) => file);
