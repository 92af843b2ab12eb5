// Screenshots of the load HTML report for the README and docs/: real short `harness load` runs against the embedded
// reference server, one with a limit 10 % low (FAILs) and one faithful (PASSes), photographed in headless Chromium at
// 1400 and 800 px. Run: `npx tsx scripts/screenshots-load.ts` (CHROMIUM names another browser binary).
// The transaction limit is lowered to 200 / second and phases last 4 s to keep k6 unstarved on a small machine.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const chromium = process.env.CHROMIUM ?? 'chromium';
const WIDTHS = [1400, 800] as const;

const run = (command: string, args: readonly string[]) =>
  spawnSync(command, args, {
    cwd: root,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 180_000,
  });

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
    const load = run(process.execPath, [
      join(root, 'bin/harness.js'),
      'load',
      '--scenario',
      'transactions',
      '--duration',
      '4s',
      '--limit',
      'transaction-event=200/second',
      ...args,
      '--report-dir',
      dir,
    ]);
    // Any other exit means the run did not show what this picture is of.
    if (!(exitCodes as readonly number[]).includes(load.status ?? -1)) {
      throw new Error(`harness load (${name}) exited ${load.status}:\n${load.stdout}${load.stderr}`);
    }
    const page = join(dir, 'latest', 'load-transactions-summary.html');
    for (const width of WIDTHS) {
      const file = join(root, 'docs', `load-${name}-${width}.png`);
      const shot = run(chromium, [
        '--headless',
        '--disable-gpu',
        '--hide-scrollbars',
        // The page fetches nothing; these keep Chromium's own background traffic off the network too.
        '--disable-background-networking',
        '--disable-component-update',
        '--host-resolver-rules=MAP * ~NOTFOUND',
        ...(process.getuid?.() === 0 ? ['--no-sandbox'] : []),
        `--window-size=${width},${width < 1000 ? height + 500 : height}`,
        `--screenshot=${file}`,
        `file://${page}`,
      ]);
      if (shot.status !== 0) throw new Error(`${chromium} exited ${shot.status}: ${shot.stderr}`);
      console.log(`${file} (${Math.round(statSync(file).size / 1024)} KB)`);
    }
  }
} finally {
  rmSync(reports, { recursive: true, force: true });
}
