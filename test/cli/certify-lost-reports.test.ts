// `harness certify` whose conformance and load reports cannot be written: the verdicts stand, but an archive without
// the reports behind them must never be taken for a certification, whatever the target did. (Before: with the run
// folder gone, certify died listing it, exit 4 and no archive; lost load reports went unmentioned.)
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPORTS_NOT_WRITTEN } from '../../src/cli/exit-codes.ts';
import { type RunningReferenceServer, startReferenceServer } from '../../src/reference/index.ts';
import { untarGz } from '../certify/untar.ts';
import { routedThrough, startForwarding } from '../support/forward.ts';
import { type Finished, harness, profileFor, secretsOf, signingKeys, tmp } from './run.ts';

const CERTIFY_MS = 300_000;
const dir = tmp();
const { key, publicKey } = signingKeys(dir);
const archive = join(dir, 'lost-reports.tgz');

/** Where certify's two runs write their reports: each in a timestamped folder of its own. */
const reportDir = tmp();
/**
 * A command's run folder once certify has made it: conformance's is the first (load's comes an hour later at real
 * timings), load's the one where k6 keeps its runners' summaries.
 */
const runDir = (command: 'conformance' | 'load'): string | undefined => {
  const runs = readdirSync(reportDir)
    .filter((name) => /^\d{4}-/.test(name))
    .sort()
    .map((name) => join(reportDir, name));
  return command === 'conformance' ? runs[0] : runs.find((run) => existsSync(join(run, 'runners')));
};

let server: RunningReferenceServer;
let run: Finished;
let replacedRunDir: string | undefined;
let blockedLoadReport: string | undefined;
beforeAll(async () => {
  server = await startReferenceServer({ minuteMs: 2000, tokenLifetimeSeconds: 5 });
  const profile = server.profile();
  // The first request to reach the target is conformance's reachability HEAD, sent once the run folder exists and
  // before any check: a file put in that folder's place then (as in reports-not-written.test.ts) fails every report
  // at the end, whoever runs the test, root included.
  // Load's folder stays (k6 writes its summaries there); once k6 has begun, a folder in the place of its summary
  // report fails that report's rename at the end, root or not.
  const proxy = await startForwarding(new URL(profile.base_url).origin, () => {
    if (replacedRunDir === undefined) {
      replacedRunDir = runDir('conformance')!;
      renameSync(replacedRunDir, `${replacedRunDir}-moved`);
      writeFileSync(replacedRunDir, '');
    }
    const loadRun = blockedLoadReport === undefined ? runDir('load') : undefined;
    if (loadRun !== undefined) {
      blockedLoadReport = join(loadRun, 'load-all-summary.json');
      mkdirSync(join(blockedLoadReport, 'in-the-way'), { recursive: true });
    }
    return undefined;
  });
  try {
    const { file, env } = profileFor(server, routedThrough(profile, proxy.origin));
    run = await harness(
      ['certify', '--profile', file, '--key', key, '--out', archive, '--report-dir', reportDir],
      env,
      CERTIFY_MS,
    );
  } finally {
    await proxy.close();
  }
}, CERTIFY_MS);
afterAll(() => server.close());

describe('harness certify when the conformance and load reports cannot be written', () => {
  it('exits non-zero and signs an archive marked not certifiable, saying why, with no secret anywhere', async () => {
    const output = run.stdout + run.stderr;
    expect(replacedRunDir, 'the run folder was never replaced').toBeDefined();
    expect(blockedLoadReport, 'the load report was never blocked').toBeDefined();
    // 6 from conformance; a load phase that FAILed (1) would outrank it, load's no verdict (5) would not.
    expect([REPORTS_NOT_WRITTEN, 1], output).toContain(run.status);
    expect(run.stderr).toContain(
      `harness: reports not written (exit ${REPORTS_NOT_WRITTEN}): cannot create `,
    );
    expect(run.stdout).toMatch(/^certifiable: no: .*\bthe conformance reports could not be written\b/m);
    expect(run.stdout).toMatch(/^certifiable: no: .*\bthe load reports could not be written\b/m);

    const verified = await harness(['verify', archive, '--public-key', publicKey]);
    expect(verified.status, verified.stdout + verified.stderr).toBe(0);
    const entries = await untarGz(readFileSync(archive));
    const manifest = JSON.parse(entries.find((e) => e.path === 'manifest.json')!.data.toString('utf8'));
    expect(manifest.certifiable).toBe(false);
    expect(manifest.notCertifiable).toContain('the conformance reports could not be written');
    expect(manifest.conformance.exitCode).toBe(REPORTS_NOT_WRITTEN);
    expect(manifest.notCertifiable).toContain('the load reports could not be written');
    // The phases stand though their reports are lost: counted from what load judged, not from a file never written.
    expect(manifest.load.summary).toMatch(
      new RegExp(
        `^exit ${manifest.load.exitCode}: \\d+ phases: \\d+ passed, \\d+ failed, \\d+ without a verdict, 0 skipped$`,
      ),
    );
    expect(entries.filter((e) => /^(conformance|load)\//.test(e.path))).toEqual([]);

    const secrets = secretsOf(server);
    expect(secrets.length).toBeGreaterThan(10);
    for (const entry of entries) {
      const text = entry.data.toString('utf8');
      for (const secret of secrets) expect(text.includes(secret), `${entry.path} holds a secret`).toBe(false);
    }
    for (const text of [run.stdout, run.stderr]) {
      for (const secret of secrets) expect(text.includes(secret)).toBe(false);
    }
  });
});
