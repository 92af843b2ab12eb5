// A report folder that fails a run at its end: replaced by a file, made read-only, its file system remounted
// read-only or full. The verdicts still reach stdout, no report is left half written (before: a 0-byte
// conformance.json), `latest` is not moved, and the run exits 6, or 1 when a check FAILed.
import { execFileSync } from 'node:child_process';
import { chmodSync, readdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { judge } from '../../core/judged.ts';
import { REPORTS_NOT_WRITTEN } from '../../src/cli/exit-codes.ts';
import { finishLoad, loadStream } from '../../src/cli/load.ts';
import { type RunningReferenceServer, startReferenceServer } from '../../src/reference/index.ts';
import { judgedRun } from '../../src/report/load-reports.ts';
import { NETWORKS, simulate } from '../load/simulate.ts';
import { chmodBinds } from '../support/chmod.ts';
import { type Forwarded, routedThrough, startForwarding } from '../support/forward.ts';
import { SCALED } from '../support/testbed.ts';
import { harness, profileFor, SIDE_BY_SIDE, tmp } from './run.ts';

const mounted: string[] = [];
/** A tmpfs of `size` at a fresh folder; undefined where this user may not mount one (any user but root). */
const tmpfs = (size: string): string | undefined => {
  const dir = tmp();
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { stdio: 'ignore' });
  } catch {
    return undefined;
  }
  mounted.push(dir);
  return dir;
};
const mayMount = tmpfs('64k') !== undefined;
afterAll(() => {
  for (const dir of mounted) execFileSync('umount', ['-l', dir]);
});

/** Every file under `dir`, as paths relative to it. */
const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => !entry.isDirectory())
    .map((entry) => join(entry.parentPath, entry.name).slice(dir.length + 1));

/**
 * `harness conformance --only <only>` into `root`, its run folder broken by `spoil` at the target's first request:
 * the reachability HEAD, which the run sends once it has made its folder and before any check. `reset` drops that
 * request instead of forwarding it, so the target is unreachable.
 */
const spoiledRun = async (
  server: RunningReferenceServer,
  root: string,
  only: string,
  spoil: (runDir: string) => void,
  reset = false,
) => {
  const profile = server.profile();
  let runDir: string | undefined;
  const proxy = await startForwarding(new URL(profile.base_url).origin, (_req: Forwarded) => {
    if (runDir === undefined) {
      runDir = join(root, readdirSync(root).find((name) => /^\d{4}-/.test(name))!);
      spoil(runDir);
    }
    return reset ? { reset: true } : undefined;
  });
  try {
    const { file, env } = profileFor(server, routedThrough(profile, proxy.origin));
    const result = await harness(
      ['conformance', '--profile', file, '--report-dir', root, '--only', only],
      env,
      60_000,
    );
    return { ...result, runDir: runDir! };
  } finally {
    await proxy.close();
  }
};

/** Replaces the run's folder with an empty file: whoever runs the test, nothing can be written there. */
const fileInstead = (runDir: string) => {
  renameSync(runDir, `${runDir}-moved`);
  writeFileSync(runDir, '');
};

/** The summary is on stdout, last, with no reports line; stderr says why; no report file or temporary file is left. */
const expectVerdictsOnly = (
  run: Awaited<ReturnType<typeof spoiledRun>>,
  root: string,
  status: number,
  why: RegExp,
) => {
  expect(run.status, run.stderr).toBe(status);
  const lines = run.stdout.trim().split('\n');
  expect(lines.at(-1)).toMatch(/^summary: \d+ checks? in [\d.]+ s: /);
  expect(run.stdout).not.toMatch(/^reports:/m);
  expect(run.stderr).toMatch(why);
  expect(run.stderr).toContain(`harness: reports not written (exit ${REPORTS_NOT_WRITTEN}): `);
  expect(
    filesUnder(root).filter((name) => name !== 'filler' && name !== run.runDir.slice(root.length + 1)),
  ).toEqual([]);
};

describe.concurrent('a report folder that cannot be written when the run ends', SIDE_BY_SIDE, () => {
  let faithful: RunningReferenceServer;
  beforeAll(async () => {
    faithful = await startReferenceServer(SCALED);
  });
  afterAll(() => faithful.close());

  it('a file where the run folder was: the verdicts on stdout, exit 6, never 0', async () => {
    const root = tmp();
    const run = await spoiledRun(faithful, root, 'token', fileInstead);
    expectVerdictsOnly(
      run,
      root,
      REPORTS_NOT_WRITTEN,
      /cannot create .*: EEXIST; no file is left half written/,
    );
    expect(run.stdout).toMatch(/^summary: \d+ checks in [\d.]+ s: 0 FAIL, 0 INCONCLUSIVE, 0 WARN, /m);
  });

  it('a check FAILed: exit 1 all the same, the FAIL on stdout', async () => {
    const failing = await startReferenceServer({ ...SCALED, fault: 'missing-token-accepted' });
    try {
      const root = tmp();
      const run = await spoiledRun(failing, root, 'AUTH-BEARER-MISSING', fileInstead);
      expectVerdictsOnly(run, root, 1, /cannot create .*: EEXIST/);
      expect(run.stdout).toMatch(/^FAIL\s+AUTH-BEARER-MISSING/m);
    } finally {
      await failing.close();
    }
  });

  it('the target unreachable too: the reason on stderr, exit 6', async () => {
    const root = tmp();
    const run = await spoiledRun(faithful, root, 'token', fileInstead, true);
    expect(run.status, run.stderr).toBe(REPORTS_NOT_WRITTEN);
    expect(run.stderr).toMatch(/^harness: target unreachable, no check run: /m);
    expect(run.stderr).toContain(
      `harness: reports not written (exit ${REPORTS_NOT_WRITTEN}): cannot create `,
    );
    expect(run.stdout).toBe(`summary: target unreachable: no check run (exit ${REPORTS_NOT_WRITTEN})\n`);
  });

  it.runIf(chmodBinds)('a run folder made read-only (chmod 0555): exit 6, EACCES', async () => {
    const root = tmp();
    const run = await spoiledRun(faithful, root, 'token', (dir) => chmodSync(dir, 0o555));
    expectVerdictsOnly(run, root, REPORTS_NOT_WRITTEN, /cannot write .*conformance\.json: EACCES/);
  });

  it.runIf(mayMount)('a file system remounted read-only: exit 6, EROFS', async () => {
    const root = tmpfs('1m')!;
    const run = await spoiledRun(faithful, root, 'token', () =>
      execFileSync('mount', ['-o', 'remount,ro', root]),
    );
    expectVerdictsOnly(run, root, REPORTS_NOT_WRITTEN, /cannot write .*conformance\.json: EROFS/);
  });

  it.runIf(mayMount)('a full file system: exit 6, ENOSPC, and no 0-byte report left', async () => {
    const root = tmpfs('1m')!;
    const run = await spoiledRun(faithful, root, 'token', () => {
      try {
        writeFileSync(join(root, 'filler'), Buffer.alloc(2 * 1024 * 1024));
      } catch {
        // ENOSPC: what the filler wanted.
      }
    });
    expectVerdictsOnly(run, root, REPORTS_NOT_WRITTEN, /cannot write .*conformance\.json: ENOSPC/);
    expect(readdirSync(run.runDir)).toEqual([]);
  });
});

describe('finishLoad, when the load reports cannot be written', () => {
  const summary = simulate(
    { kind: 'aligned', network: NETWORKS.lan, enforced: 1.5 },
    { scenarios: ['transactions'] },
  );
  const run = judgedRun(judge(summary), Date.now(), {
    label: 'transactions',
    runMs: 12_000,
    properties: {},
    strict: false,
  });

  it('prints every phase and the counts, says why on stderr, and exits 1 for the FAILed phases (6 without)', async () => {
    const dir = join(tmp(), 'run');
    writeFileSync(dir, '');
    const out: string[] = [];
    const err: string[] = [];
    vi.spyOn(console, 'log').mockImplementation((line: string) => void out.push(line));
    vi.spyOn(console, 'error').mockImplementation((line: string) => void err.push(line));
    try {
      const failed = await finishLoad(
        loadStream(dir, () => {}),
        run,
        { files: [], exitCodes: [] },
      );
      // Says the reports were lost, so certify archives none of them and names why.
      expect(failed).toEqual({ exitCode: 1, dir, files: [], reportsNotWritten: true, phases: run.phases });
      expect(out).toHaveLength(run.phases.length + 1);
      expect(out.at(-1)).toMatch(/^summary: 3 phases: \d FAIL/);
      expect(err).toEqual([
        `harness: reports not written (exit 6): cannot create ${dir}: EEXIST; no file is left half written, and the summary on stdout is all this run leaves`,
      ]);
      const passing = { ...run, phases: run.phases.map((p) => ({ ...p, grade: 'PASS' as const })) };
      expect(
        (
          await finishLoad(
            loadStream(dir, () => {}),
            passing,
            { files: [], exitCodes: [] },
          )
        ).exitCode,
      ).toBe(REPORTS_NOT_WRITTEN);
    } finally {
      vi.restoreAllMocks();
    }
  });
});
