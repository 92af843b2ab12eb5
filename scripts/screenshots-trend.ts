// Screenshots of `harness trend` for the README and docs/: five real rounds against the embedded reference server,
// each a conformance run and a short load run into one report folder, the fourth with the transaction limit 10 %
// low (a regression the page must show), and one --only run the page leaves out by default (and says so); then the
// trend page in headless Chromium at 1400 and 800 px.
// Run: `npx tsx scripts/screenshots-trend.ts` (CHROMIUM names another browser binary). About four minutes.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { runHarness, SHORT_LOAD, shootPage } from './doc-runs.ts';

const root = resolve(import.meta.dirname, '..');
const HEIGHT = { 1400: 1300, 800: 2200 } as const;
const ROUNDS = 5;
const REGRESSED = 3;

const tmp = mkdtempSync(join(tmpdir(), 'harness-trend-'));
const reports = join(tmp, 'reports');
try {
  for (let round = 0; round < ROUNDS; round++) {
    const fault = round === REGRESSED ? ['--fault', 'wrong-limit-transaction'] : [];
    // Exit 5 too: a starved runner leaves a limit check INCONCLUSIVE, which the trend shows as it is.
    runHarness(['conformance', ...fault, '--report-dir', reports], fault.length > 0 ? [1, 5] : [0, 5]);
    // Exit 5 too: a starved k6 leaves a phase INCONCLUSIVE, which the trend shows as it is.
    runHarness([...SHORT_LOAD, ...fault, '--report-dir', reports], fault.length > 0 ? [1, 5] : [0, 5]);
    console.log(`round ${round + 1} of ${ROUNDS}`);
  }
  runHarness(['conformance', '--only', 'token', '--report-dir', reports], [0]);
  runHarness(['trend', 'reports'], [0], tmp);
  const page = join(reports, 'trend.html');
  for (const width of [1400, 800] as const) {
    shootPage(page, join(root, 'docs', `trend-${width}.png`), width, HEIGHT[width]);
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
