// What the scripts that photograph real runs' reports for docs/ share: running harness as a user would, the short
// load run they take, and one screenshot of a local HTML page in headless Chromium (CHROMIUM names another binary).
// The pages fetch nothing; the flags keep Chromium's own traffic off the network too.
import { spawnSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');

/**
 * A load run short enough for a small machine: the transaction limit lowered to 200 / second, phases of 4 s, so k6
 * stays unstarved.
 */
export const SHORT_LOAD = [
  'load',
  '--scenario',
  'transactions',
  '--duration',
  '4s',
  '--limit',
  'transaction-event=200/second',
] as const;

/**
 * Runs harness from the clone, in `cwd` (the paths a page shows are as the user gave them); any exit but `exitCodes`
 * means the run did not show what the picture is of.
 */
export const runHarness = (args: readonly string[], exitCodes: readonly number[], cwd = root): void => {
  const done = spawnSync(process.execPath, [join(root, 'bin/harness.js'), ...args], {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 300_000,
  });
  if (!exitCodes.includes(done.status ?? -1)) {
    throw new Error(`harness ${args.join(' ')} exited ${done.status}:\n${done.stdout}${done.stderr}`);
  }
};

const chromium = process.env.CHROMIUM ?? 'chromium';

export const shootPage = (page: string, file: string, width: number, height: number): void => {
  const shot = spawnSync(
    chromium,
    [
      '--headless',
      '--disable-gpu',
      '--hide-scrollbars',
      '--disable-background-networking',
      '--disable-component-update',
      '--host-resolver-rules=MAP * ~NOTFOUND',
      ...(process.getuid?.() === 0 ? ['--no-sandbox'] : []),
      `--window-size=${width},${height}`,
      `--screenshot=${file}`,
      `file://${page}`,
    ],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 180_000 },
  );
  if (shot.status !== 0) throw new Error(`${chromium} exited ${shot.status}: ${shot.stderr}`);
  console.log(`${file} (${Math.round(statSync(file).size / 1024)} KB)`);
};
