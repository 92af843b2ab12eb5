import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'conformance/**/*.test.ts'],
    // Servers under test bind loopback ports; a slow shared machine gets room, a hung test still ends.
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
