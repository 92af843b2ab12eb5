// No silent skips: every tool a test needs is here, or this test says which is missing, what skips without it and
// how to get it; with HARNESS_REQUIRE_TOOLS=1 (CI, which installs them all) a missing one fails the suite.
import { describe, expect, it } from 'vitest';
import { hasTool, TOOLS, type ToolName } from './support/tools.ts';

describe('the tools the suite needs', () => {
  it('are all here, or the missing ones are named with what skips and how to get them', () => {
    const missing = (Object.keys(TOOLS) as ToolName[]).filter((name) => !hasTool(name));
    for (const name of missing) {
      console.warn(`missing ${name}: skipped: ${TOOLS[name].skips}; to get it: ${TOOLS[name].get}`);
    }
    if (process.env.HARNESS_REQUIRE_TOOLS === '1') expect(missing, 'HARNESS_REQUIRE_TOOLS=1').toEqual([]);
  });
});
