import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { configDefaults, defineConfig } from 'vitest/config';
import { SlowFirst } from './test/slow-first.ts';

/**
 * `npm run test:long`, not `npm test`: the files whose k6 and whole harness runs against real-time windows (behind
 * Toxiproxy, through TLS and a proxy, or interrupted by signals) take the better part of a minute or more. `npm test` stays the suite one runs before every commit
 * (under 8 minutes on a 2-core machine); CI runs both.
 */
const LONG = [
  'test/load/limiters.test.ts',
  'test/load/load.test.ts',
  'test/cli/no-verdict.test.ts',
  'test/cli/signals.test.ts',
  'test/load/bounds.test.ts',
  'test/load/token-failure.test.ts',
  'test/network/network.test.ts',
  // A k6 run to its end, to compare its checkpoint with its summary.
  'test/k6-driver/checkpoint.test.ts',
  // A conformance run and a replay for each of 21 limit faults: 180 s.
  'test/cli/replay-faults.test.ts',
  // Two k6 runs against token answers that are decompression bombs: 37 s.
  'test/load/token-bomb.test.ts',
  // Thirteen probes of rules-schedule through real rate-limiting libraries run as gateways: 52 s.
  'test/conformance/ratelimit-libraries.test.ts',
];

/**
 * Long files run one at a time: those whose verdicts turn on how narrow a burst is behind 200 ms round trips
 * (Toxiproxy; starved of CPU by the files beside them, a burst widens and a 10 % low limit comes out INCONCLUSIVE,
 * sound but not what they assert), and one that starves the files beside it.
 */
const LONG_ALONE = [
  'test/conformance/network.test.ts',
  'test/load/network.test.ts',
  // A whole certify run (conformance, then k6 through every scenario): beside two other files it starved k6 and
  // the probes of the files next to it (INCONCLUSIVE where they assert a verdict) in two fresh-clone runs.
  'test/cli/certify-lost-reports.test.ts',
  // Two certify runs side by side: 121 s, the longest file of npm test, which took 480 s on 2026-11-27.
  'test/cli/certify.test.ts',
  // The container image: k6 compiled inside it takes both cores for minutes, then three runs of harness inside it.
  'test/image/image.test.ts',
];

// A renamed long file would silently leave both suites.
const gone = [...LONG, ...LONG_ALONE].filter((file) => !existsSync(join(import.meta.dirname, file)));
if (gone.length > 0) throw new Error(`vitest.config.ts names test files that are gone: ${gone.join(', ')}`);

export default defineConfig({
  test: {
    // Servers under test bind loopback ports; a slow shared machine gets room, a hung test still ends.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    sequence: { sequencer: SlowFirst },
    projects: [
      {
        extends: true,
        test: {
          name: 'fast',
          include: ['test/**/*.test.ts', 'conformance/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...LONG, ...LONG_ALONE],
          // Two files at once on a 2-core machine: with probes that wait out two windows, a third file beside them
          // starved the window-end bursts and sharing variants of CPU (INCONCLUSIVE where the tests ask for a verdict).
          maxWorkers: 2,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: { name: 'long-alone', include: LONG_ALONE, maxWorkers: 1, sequence: { groupOrder: 1 } },
      },
      {
        extends: true,
        test: { name: 'long', include: LONG, maxWorkers: 2, sequence: { groupOrder: 2 } },
      },
    ],
  },
});
