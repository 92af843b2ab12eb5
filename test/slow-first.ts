// The order files start in. With three at once, a long file started last ends the run alone, and on a fresh clone
// vitest has no durations yet and starts the biggest files first, not the longest. These run k6 or whole harness runs
// against real-time windows: measured longest first (test/slow-files.ts), they start before every other file, which
// follows in vitest's own order.
import { join, relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { LONGEST_FIRST } from './slow-files.ts';

const root = join(import.meta.dirname, '..');

export class SlowFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (file: TestSpecification) => {
      const at = LONGEST_FIRST.indexOf(relative(root, file.moduleId).replaceAll('\\', '/'));
      return at < 0 ? LONGEST_FIRST.length : at;
    };
    // Array sort is stable: within a rank, vitest's order stands.
    return sorted.sort((a, b) => rank(a) - rank(b));
  }
}
