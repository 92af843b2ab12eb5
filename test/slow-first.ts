// The order files start in. With three at once, a long file started last ends the run alone, and on a fresh clone
// vitest has no durations yet and starts the biggest files first, not the longest. These run k6 or whole harness runs
// against real-time windows: measured longest first (seconds in a full run, to keep the list honest), they start
// before every other file, which follows in vitest's own order.
import { existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const LONGEST = [
  'test/cli/replay-faults.test.ts', // 180
  'test/load/limiters.test.ts', // 178
  'test/network/network.test.ts', // 89
  'test/load/load.test.ts', // 86
  'test/cli/no-verdict.test.ts', // 65
  'test/load/bounds.test.ts', // 56
  'test/cli/signals.test.ts', // 50
  'test/conformance/faults.test.ts', // 47
  'test/package/pack.test.ts', // 39
  'test/load/token-failure.test.ts', // 37
  'test/load/token-bomb.test.ts', // 37
  'test/conformance/faithful.test.ts', // 37
  'test/cli/hostile-inputs.test.ts', // 34
];

const root = join(import.meta.dirname, '..');
const renamed = LONGEST.filter((file) => !existsSync(join(root, file)));
if (renamed.length > 0)
  throw new Error(`test/slow-first.ts names files that are gone: ${renamed.join(', ')}`);

export class SlowFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (file: TestSpecification) => {
      const at = LONGEST.indexOf(relative(root, file.moduleId).replaceAll('\\', '/'));
      return at < 0 ? LONGEST.length : at;
    };
    // Array sort is stable: within a rank, vitest's order stands.
    return sorted.sort((a, b) => rank(a) - rank(b));
  }
}
