import { defineConfig } from 'vitest/config';
import { SlowFirst } from './test/slow-first.ts';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'conformance/**/*.test.ts'],
    // Servers under test bind loopback ports; a slow shared machine gets room, a hung test still ends.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Three files at once: most of the suite's time is spent waiting out two-second windows and k6 runs that last
    // seconds, not on the CPU, so a third file fills a 2-core machine without starving the runs that time windows.
    maxWorkers: 3,
    sequence: { sequencer: SlowFirst },
  },
});
