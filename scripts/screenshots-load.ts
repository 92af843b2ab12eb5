// Screenshots of the load HTML report for the README and docs/: real short `harness load` runs against the embedded
// reference server, one with a limit 10 % low (FAILs) and one faithful (PASSes), photographed in headless Chromium at
// 1400 and 800 px, each with its index.html.
// Run: `npx tsx scripts/screenshots-load.ts` (CHROMIUM names another browser binary).
// The transaction limit is lowered to 200 / second and phases last 4 s to keep k6 unstarved on a small machine.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { runHarness, SHORT_LOAD, shootPage } from './doc-runs.ts';

const root = resolve(import.meta.dirname, '..');
const WIDTHS = [1400, 800] as const;

/**
 * A run against a limit 10 % low (FAILs, each chart marking the 429 that proves it) and one against the faithful
 * server (its charts must read as a PASS); each page shot whole enough to show its charts.
 */
const RUNS = [
  { name: 'fail', args: ['--fault', 'wrong-limit-transaction'], exitCodes: [1], height: 1900 },
  // Exit 5 too: a starved k6 leaves a phase INCONCLUSIVE, whose page is still worth a look but not this picture.
  { name: 'pass', args: [], exitCodes: [0], height: 1900 },
] as const;

const reports = mkdtempSync(join(tmpdir(), 'harness-screenshots-'));
try {
  for (const { name, args, exitCodes, height } of RUNS) {
    const dir = join(reports, name);
    runHarness([...SHORT_LOAD, ...args, '--report-dir', dir], exitCodes);
    const page = join(dir, 'latest', 'load-transactions-summary.html');
    for (const width of WIDTHS) {
      const file = join(root, 'docs', `load-${name}-${width}.png`);
      shootPage(page, file, width, width < 1000 ? height + 500 : height);
      shootPage(
        join(dir, 'latest', 'index.html'),
        join(root, 'docs', `index-load-${name}-${width}.png`),
        width,
        800,
      );
    }
  }
} finally {
  rmSync(reports, { recursive: true, force: true });
}
