// `harness replay`: the reproduction a limit FAIL's report names is a command, and that command FAILs the same check
// against the same faulty server (a shell loop of curls, the old reproduction, cannot send a burst in one window).
import { readdirSync, readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { conformanceCommand, parsedOptions } from '../../src/cli/commands.ts';
import { replayArgumentsOf } from '../../src/cli/replay-arguments.ts';
import { startReferenceServer } from '../../src/reference/index.ts';
import type { CheckResult } from '../../src/runner/types.ts';
import { SCALED } from '../support/testbed.ts';
import { asPrinted, harness, profileFor, secretsOf, tmp } from './run.ts';

/** The report `harness conformance` wrote, and the checks it FAILed. */
const conformanceRun = async (args: string[], env: NodeJS.ProcessEnv = {}) => {
  const reportDir = tmp();
  const run = await harness(['conformance', '--report-dir', reportDir, ...args], env);
  const latest = realpathSync(join(reportDir, 'latest'));
  const report = JSON.parse(readFileSync(join(latest, 'conformance.json'), 'utf8'));
  const failed: CheckResult[] = report.checks.filter((c: CheckResult) => c.grade === 'FAIL');
  return { run, failed, markdown: readFileSync(join(latest, 'conformance.md'), 'utf8') };
};

/** Runs the report's reproduction through a shell, as printed (only the report folder added). */
const replayAsReported = (line: string, env: NodeJS.ProcessEnv = {}) =>
  asPrinted(`${line} --report-dir ${tmp()}`, env);

const replayedLine = (id: string, grade: string) =>
  new RegExp(`^replayed ${id} \\(§8 [a-z0-9 ]+\\): ${grade}$`, 'm');

describe('harness replay against the embedded reference server', () => {
  it('reproduces the limit FAIL a conformance run reported, by the command its report names', async () => {
    const { run, failed, markdown } = await conformanceRun([
      '--fault',
      'wrong-limit-transaction',
      '--only',
      'transaction-event',
    ]);
    expect(run.status, run.stderr).toBe(1);
    expect(failed.map((c) => c.id)).toEqual(['LIMIT-ADMITS-TRANSACTION-EVENT']);
    const command =
      'npx --no-install harness replay LIMIT-ADMITS-TRANSACTION-EVENT --fault wrong-limit-transaction';
    // The embedded server is gone once the run ends: a curl to its port would find nothing, so the replay alone.
    expect(failed[0]!.repro).toEqual([command]);
    expect(markdown).toContain(command);

    const replayed = await replayAsReported(command);
    expect(replayed.status, replayed.stderr).toBe(1);
    expect(replayed.stdout).toMatch(replayedLine('LIMIT-ADMITS-TRANSACTION-EVENT', 'FAIL'));
    // The requests the FAIL cites, as sent: whichever of the probe's requests proved it (spend, edge poll, fresh).
    expect(replayed.stdout).toMatch(/^ {4}'[a-z ]+ #\d+' POST http:\S+\/event\/transaction\/v3 → 429/m);
  }, 120_000);

  it('passes the same check against the faithful server', async () => {
    const reportDir = tmp();
    const replayed = await harness(['replay', 'LIMIT-ADMITS-TRANSACTION-EVENT', '--report-dir', reportDir]);
    expect(replayed.status, replayed.stderr).toBe(0);
    expect(replayed.stdout).toMatch(replayedLine('LIMIT-ADMITS-TRANSACTION-EVENT', 'PASS'));
    // It says what it is, and does not blame flags it was never given for the checks it left out.
    expect(replayed.stderr).toMatch(
      /^harness replay LIMIT-ADMITS-TRANSACTION-EVENT: http:\/\/127\.0\.0\.1:\d+ /m,
    );
    expect(replayed.stdout).toMatch(/^summary: 1 check in /m);
    expect(replayed.stdout).toMatch(/checks SPEC\.md requires were left out by replaying one check/);
    expect(replayed.stdout).not.toContain('--only/--skip');
    // Its reports count one check as one, and `latest` is not moved: it names the run a replay was taken from.
    const [run, ...others] = readdirSync(reportDir);
    expect(others).toEqual([]);
    expect(readFileSync(join(reportDir, run!, 'conformance.html'), 'utf8')).toContain('1 check against');
    expect(readFileSync(join(reportDir, run!, 'conformance.md'), 'utf8')).toContain(
      '<summary>1 check passed</summary>',
    );
  }, 120_000);

  it('shows the answer that proves the grade, its headers and body, each request once', async () => {
    const replayed = await harness([
      'replay',
      'AUTH-TOKEN-TYPE',
      '--fault',
      'token-type-lowercase',
      '--report-dir',
      tmp(),
    ]);
    expect(replayed.status, replayed.stderr).toBe(1);
    expect(replayed.stdout).toMatch(/^replayed AUTH-TOKEN-TYPE \(§2\): FAIL$/m);
    // Once: the token request several checks share is recorded once.
    const sent = replayed.stdout.match(/^ {4}'token request as SPEC\.md §5 rule 1 says' POST \S+ → 200, /gm);
    expect(sent).toHaveLength(1);
    expect(replayed.stdout).toMatch(/^ {6}content-type: application\/json; .*cache-control: no-store/m);
    expect(replayed.stdout).toMatch(
      /^ {6}\{"access_token":"\S+…\(sha256:[0-9a-f]{12}\)".*"token_type":"bearer"\}$/m,
    );
  });

  it('refuses an unknown check ID with one line and exit 2, before any run', async () => {
    const replayed = await harness(['replay', 'LIMIT-ADMITS-TRANSACTION-EVEN', '--report-dir', tmp()]);
    expect(replayed.status).toBe(2);
    expect(replayed.stdout).toBe('');
    expect(replayed.stderr).toMatch(
      /^harness: replay <check-id>: unknown check ID or tag: LIMIT-ADMITS-TRANSACTION-EVEN\b[^\n]*\n$/,
    );
  });
});

describe('harness replay of a profile', () => {
  it('names the profile by its path, and FAILs the check again with the secrets from the environment', async () => {
    const server = await startReferenceServer({ ...SCALED, fault: 'no-limit-schedule' });
    try {
      const { file, env } = profileFor(server);
      const { run, failed } = await conformanceRun(['--profile', file, '--only', 'rules-schedule'], env);
      expect(run.status, run.stderr).toBe(1);
      expect(failed.map((c) => c.id)).toEqual(['LIMIT-ENFORCED-RULES-SCHEDULE']);
      const command = `npx --no-install harness replay LIMIT-ENFORCED-RULES-SCHEDULE --profile ${file}`;
      expect(failed[0]!.repro[0]).toBe(command);

      const replayed = await replayAsReported(command, env);
      expect(replayed.status, replayed.stderr).toBe(1);
      expect(replayed.stdout).toMatch(replayedLine('LIMIT-ENFORCED-RULES-SCHEDULE', 'FAIL'));
      for (const secret of secretsOf(server)) {
        expect(replayed.stdout.includes(secret)).toBe(false);
        expect(replayed.stderr.includes(secret)).toBe(false);
      }
    } finally {
      await server.close();
    }
  }, 120_000);
});

describe('replayArgumentsOf', () => {
  it("keeps the run's target and network flags as given, and drops what selects, reports or is a default", () => {
    const parsed = (...args: string[]) =>
      replayArgumentsOf(
        parsedOptions(conformanceCommand, [
          ...args,
          '--report-dir',
          'out',
          '--format',
          'json',
          '--only',
          'limits',
          '--slow',
        ]),
      );
    expect(
      parsed(
        '--profile',
        'ci/staging.yaml',
        '--tenant',
        'acme',
        '--timeout',
        '15000',
        '--insecure',
        '--strict',
        '--tokens',
        'opaque',
      ),
    ).toEqual([
      '--profile',
      'ci/staging.yaml',
      '--tenant',
      'acme',
      '--timeout',
      '15000',
      '--insecure',
      '--strict',
    ]);
    expect(parsed('--fault', 'no-limit-schedule', '--tokens', 'jwt')).toEqual([
      '--fault',
      'no-limit-schedule',
      '--tokens',
      'jwt',
    ]);
  });
});
