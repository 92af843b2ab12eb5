// Screenshots of the load HTML report for the README and docs/: a real short `harness load` against the embedded
// reference server with a limit 10 % low (so the page shows a FAIL beside PASSes), photographed in headless
// Chromium at 1400 and 800 px. Run: `npx tsx scripts/screenshots-load.ts` (CHROMIUM names another browser binary).
// The transaction limit is lowered to 200 / second and phases last 4 s to keep k6 unstarved on a small machine.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const chromium = process.env.CHROMIUM ?? 'chromium';
const WIDTHS = [1400, 800] as const;
const HEIGHT = 900;

const run = (command: string, args: readonly string[]) =>
  spawnSync(command, args, {
    cwd: root,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 180_000,
  });

const reports = mkdtempSync(join(tmpdir(), 'harness-screenshots-'));
try {
  const load = run(process.execPath, [
    join(root, 'bin/harness.js'),
    'load',
    '--scenario',
    'transactions',
    '--duration',
    '4s',
    '--limit',
    'transaction-event=200/second',
    '--fault',
    'wrong-limit-transaction',
    '--report-dir',
    reports,
  ]);
  // Exit 1 is the FAIL this run is meant to show; anything else means there is no report worth a picture.
  if (load.status !== 0 && load.status !== 1) {
    throw new Error(`harness load exited ${load.status}:\n${load.stdout}${load.stderr}`);
  }
  const page = join(reports, 'latest', 'load-transactions-summary.html');
  for (const width of WIDTHS) {
    const file = join(root, 'docs', `load-${width}.png`);
    const shot = run(chromium, [
      '--headless',
      '--disable-gpu',
      '--hide-scrollbars',
      // The page fetches nothing; these keep Chromium's own background traffic off the network too.
      '--disable-background-networking',
      '--disable-component-update',
      '--host-resolver-rules=MAP * ~NOTFOUND',
      ...(process.getuid?.() === 0 ? ['--no-sandbox'] : []),
      `--window-size=${width},${HEIGHT}`,
      `--screenshot=${file}`,
      `file://${page}`,
    ]);
    if (shot.status !== 0) throw new Error(`${chromium} exited ${shot.status}: ${shot.stderr}`);
    console.log(`${file} (${Math.round(statSync(file).size / 1024)} KB)`);
  }
} finally {
  rmSync(reports, { recursive: true, force: true });
}
