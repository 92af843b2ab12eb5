import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'conformance/**/*.test.ts'],
    // Servers under test bind loopback ports; a slow shared machine gets room, a hung test still ends.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Files one at a time: the conformance self-tests time two-second windows and the k6 tests drive hundreds of
    // requests a second, and on a 2-core machine running them side by side would make either one flaky.
    fileParallelism: false,
  },
});
