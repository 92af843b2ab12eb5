// Screenshots of the conformance HTML report for docs/, from real runs against the embedded reference server: one
// that passes, and one with a limit fault (POST /api/rules/execute admits 40 per window instead of 30), so the
// pictures show what a person meets, not a fixture; with each run's index.html, and compare.html of the two.
// Headless Chromium at 1400 and 800 px wide.
//   npm run screenshots        (needs chromium: apt-get install chromium)
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '..');
export const CHROMIUM = '/usr/bin/chromium';

/** Flags that keep Chromium off the network and out of the user's profile. */
export const chromiumFlags = (profile: string): string[] => [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--hide-scrollbars',
  '--force-device-scale-factor=1',
  `--user-data-dir=${profile}`,
];

interface Run {
  readonly name: string;
  readonly args: readonly string[];
  readonly exitCode: number;
  /** Also shot this tall, when the top of the page does not show what the run is about. */
  readonly tall?: number;
}

const RUNS: readonly Run[] = [
  { name: 'pass', args: [], exitCode: 0 },
  {
    name: 'fail',
    args: ['--fault', 'wrong-limit-execute'],
    exitCode: 1,
    // The limit FAIL's card, its picture included, below the header.
    tall: 1400,
  },
];
const WIDTHS = [1400, 800] as const;
const HEIGHT = 900;
const COMPARE_HEIGHT = 700;

/** Runs harness as a user would, in `dir`, so the command line the report quotes is the plain one. */
const harnessRun = async (dir: string, args: readonly string[], name: string, expected: number) => {
  const exitCode = await run('node', [join(ROOT, 'bin/harness.js'), ...args], {
    cwd: dir,
    maxBuffer: 64 << 20,
  }).then(
    () => 0,
    (error: { code?: number }) => error.code ?? -1,
  );
  if (exitCode !== expected) throw new Error(`the ${name} run exited ${exitCode}, not ${expected}`);
};

/** The run's folder (its `latest`). */
const conformanceRun = async (dir: string, spec: Run): Promise<string> => {
  await harnessRun(dir, ['conformance', ...spec.args, '--report-dir', 'reports'], spec.name, spec.exitCode);
  return join(dir, 'reports', 'latest');
};

const shoot = async (url: string, png: string, width: number, height: number, profile: string) => {
  await run(
    CHROMIUM,
    [...chromiumFlags(profile), `--window-size=${width},${height}`, `--screenshot=${png}`, url],
    { timeout: 120_000 },
  );
  console.log(`${png.slice(ROOT.length + 1)}: ${Math.round((await stat(png)).size / 1024)} KB`);
};

const main = async (): Promise<void> => {
  const docs = join(ROOT, 'docs');
  await mkdir(docs, { recursive: true });
  const tmp = await mkdtemp(join(tmpdir(), 'harness-screenshots-'));
  try {
    const folders: string[] = [];
    for (const spec of RUNS) {
      const dir = join(tmp, spec.name);
      await mkdir(dir);
      const folder = await conformanceRun(dir, spec);
      folders.push(folder);
      const page = join(folder, 'conformance.html');
      for (const width of WIDTHS) {
        const profile = await mkdtemp(join(tmp, 'profile-'));
        const png = (suffix: string) => join(docs, `conformance-${spec.name}${suffix}-${width}.png`);
        await shoot(`file://${page}`, png(''), width, HEIGHT, profile);
        if (spec.tall !== undefined) await shoot(`file://${page}`, png('-tall'), width, spec.tall, profile);
        const index = join(docs, `index-conformance-${spec.name}-${width}.png`);
        await shoot(`file://${join(folder, 'index.html')}`, index, width, HEIGHT, profile);
      }
    }
    // The faithful run against the fault run: a verdict got worse (exit 1).
    await harnessRun(tmp, ['compare', ...folders, '--out', 'compare'], 'compare', 1);
    for (const width of WIDTHS) {
      const profile = await mkdtemp(join(tmp, 'profile-'));
      const page = `file://${join(tmp, 'compare', 'compare.html')}`;
      await shoot(page, join(docs, `compare-${width}.png`), width, COMPARE_HEIGHT, profile);
    }
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
  const shots = (await readdir(docs)).filter(
    (f) => /^(conformance|index-conformance|compare)-/.test(f) && f.endsWith('.png'),
  );
  console.log(`${shots.length} screenshots in docs/`);
};

if (process.argv[1] === import.meta.filename) {
  main().catch((error: unknown) => {
    console.error(`screenshots: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  });
}
