// The slow test files, in one list: where each runs and how long it took (seconds in a full run, to keep the order
// honest). vitest.config.ts takes its `long` and `long-alone` projects from it, and the SlowFirst sequencer its
// order, so a file moved to `test:long` cannot keep a rank in `npm test` (or lose one) by being named in only one.
import { existsSync } from 'node:fs';
import { join } from 'node:path';

/**
 * `fast`: `npm test`: unit tests, the conformance runs on virtual time (test/support/simulation/) and harness
 * commands that end without waiting out a window. `long`: `npm run test:long`, two at a time: every file that runs
 * k6, or runs harness (the binary or the runner) against the reference server on real-time windows (behind
 * Toxiproxy, through TLS and a proxy, interrupted by signals, or on loopback), or packs and installs harness. `long-alone`: `npm run test:long`, one at a time: those whose verdicts turn on how narrow a burst
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
  // npm test's longest files besides the fault matrix (seconds in npm test, 2026-11-28), started first so that neither
  // core idles at its end.
  { file: 'test/reference/faults.test.ts', project: 'fast', seconds: 25 },
  { file: 'test/conformance/ratelimit-fields.test.ts', project: 'fast', seconds: 13 },
  { file: 'test/cli/serve.test.ts', project: 'fast', seconds: 13 },
  { file: 'test/conformance/hostile.test.ts', project: 'fast', seconds: 9 },
  { file: 'test/cli/baseline-verdict.test.ts', project: 'fast', seconds: 8 },
  { file: 'test/runner/budget.test.ts', project: 'fast', seconds: 8 },
  { file: 'test/certify/verify.test.ts', project: 'fast', seconds: 7 },
  { file: 'test/cli/help.test.ts', project: 'fast', seconds: 7 },
  { file: 'test/report/screenshot.test.ts', project: 'fast', seconds: 6 },
  { file: 'test/conformance/token-failures.test.ts', project: 'fast', seconds: 6 },
  // Every fault under every limiter kind, on virtual time: CPU, not waiting (a file per kind, so both cores share them).
  { file: 'test/conformance/faults-under-anchored.test.ts', project: 'fast', seconds: 13 },
  { file: 'test/conformance/faults-under-aligned.test.ts', project: 'fast', seconds: 13 },
  { file: 'test/conformance/faults-under-sliding-log.test.ts', project: 'fast', seconds: 13 },
  { file: 'test/conformance/faults-under-token-bucket.test.ts', project: 'fast', seconds: 23 },
  { file: 'test/conformance/faults-phased.test.ts', project: 'fast', seconds: 5 },
  { file: 'test/conformance/faults-real-minutes.test.ts', project: 'fast', seconds: 4 },
  // A sample of those cells on real time too, beside their simulated runs.
  { file: 'test/conformance/faults-real-time.test.ts', project: 'long', seconds: 40 },
  { file: 'test/load/token-failure.test.ts', project: 'long', seconds: 37 },
  // Two k6 runs against token answers that are decompression bombs.
  { file: 'test/load/token-bomb.test.ts', project: 'long', seconds: 37 },
  { file: 'test/conformance/faithful.test.ts', project: 'fast', seconds: 22 },
  { file: 'test/cli/hostile-inputs.test.ts', project: 'fast', seconds: 9 },
  // Whole harness runs on real-time windows (seconds measured beside the helpers' tests, 2026-11-28: about 1.4 times
  // what an idle machine takes). npm test keeps what these files assert about the runner on virtual time.
  { file: 'test/cli/conformance.test.ts', project: 'long', seconds: 68 },
  { file: 'test/docs/readme-commands.test.ts', project: 'long', seconds: 63 },
  { file: 'test/cli/replay-failed.test.ts', project: 'long', seconds: 44 },
  { file: 'test/cli/replay.test.ts', project: 'long', seconds: 42 },
  { file: 'test/cli/hostile.test.ts', project: 'long', seconds: 26 },
  { file: 'test/cli/whole-run-deadline.test.ts', project: 'long', seconds: 24 },
  { file: 'test/cli/compare.test.ts', project: 'long', seconds: 23 },
  { file: 'test/runner/plan-skips.test.ts', project: 'long', seconds: 22 },
  { file: 'test/conformance/expiry.test.ts', project: 'long', seconds: 22 },
  { file: 'test/cli/hostile-json.test.ts', project: 'long', seconds: 20 },
  { file: 'test/runner/reproductions.test.ts', project: 'long', seconds: 20 },
  // k6 runs, and harness packed and installed.
  { file: 'test/package/pack.test.ts', project: 'long', seconds: 36 },
  { file: 'test/k6-driver/preflight.test.ts', project: 'long', seconds: 32 },
  { file: 'test/load/redirects.test.ts', project: 'long', seconds: 31 },
  { file: 'test/k6-driver/k8s.test.ts', project: 'long', seconds: 27 },
  { file: 'test/load/k8s-rehearsal.test.ts', project: 'long', seconds: 24 },
  { file: 'test/load/secrets.test.ts', project: 'long', seconds: 19 },
  { file: 'test/cli/latest-folder.test.ts', project: 'long', seconds: 20 },
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
