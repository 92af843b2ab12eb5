import { configDefaults, defineConfig } from 'vitest/config';
import { filesOf } from './test/slow-files.ts';
import { SlowFirst } from './test/slow-first.ts';
import { SIMULATION_HEAP } from './test/support/simulation/heap.ts';

// The `long` and `long-alone` projects, why each file is in one, and what each took: test/slow-files.ts.
const LONG = filesOf('long');
const LONG_ALONE = filesOf('long-alone');

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
          include: ['test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...LONG, ...LONG_ALONE],
          // Two files at once on a 2-core machine: with probes that wait out two windows, a third file beside them
          // starved the window-end bursts and sharing variants of CPU (INCONCLUSIVE where the tests ask for a verdict).
          maxWorkers: 2,
          isolate: false,
          execArgv: SIMULATION_HEAP,
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
