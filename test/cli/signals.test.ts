// SIGINT, SIGTERM and SIGHUP sent to the real `harness` binary mid-run: it stops sending, stops k6, writes its
// reports with what is unfinished INCONCLUSIVE "interrupted", leaves no temp folder, and exits 130, 143 or 129.
import { existsSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunReport } from '../../src/runner/types.ts';
import { type LoadTarget, startLoadTarget } from '../support/load-target.ts';
import { profileFile, spawnHarness, tmp } from './run.ts';

/** The k6 processes `pid` started, from /proc (Linux). */
const k6ChildrenOf = (pid: number): number[] =>
  readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((name) => {
      try {
        // Field 4 of stat, after the command in parentheses, is the parent's pid.
        const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
        const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
        return parent === pid && readFileSync(`/proc/${name}/cmdline`, 'utf8').includes('k6\0run\0');
      } catch {
        return false;
      }
    })
    .map(Number);

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** What harness left in its TMPDIR; tsx, which runs harness from source in a clone, keeps its cache there. */
const leftIn = (dir: string): string[] => readdirSync(dir).filter((name) => !name.startsWith('tsx-'));

let target: LoadTarget | undefined;
afterEach(async () => {
  await target?.close();
  target = undefined;
});

describe.runIf(existsSync('/proc/self'))('a signal to harness', () => {
  it.each([
    ['SIGINT', 130],
    // Before, SIGHUP left an empty run folder.
    ['SIGHUP', 129],
  ] as const)(
    '%s during conformance: exit %i, the four reports and the index, the unfinished checks INCONCLUSIVE "interrupted"',
    {
      timeout: 60_000,
    },
    async (signal, exitCode) => {
      const reports = tmp();
      const temp = tmp();
      const run = spawnHarness(['conformance', '--report-dir', reports], { TMPDIR: temp });
      // The token-expiry check waits out the embedded server's 5 s token beside the others.
      await run.waitFor(/⏳ AUTH-TOKEN-EXPIRY: waiting/);
      run.child.kill(signal);
      const { code } = await run.exited;
      expect(code, run.output()).toBe(exitCode);
      const latest = realpathSync(join(reports, 'latest'));
      expect(readdirSync(latest).sort()).toEqual([
        'conformance.html',
        'conformance.json',
        'conformance.md',
        'conformance.xml',
        'index.html',
      ]);
      const report = JSON.parse(readFileSync(join(latest, 'conformance.json'), 'utf8')) as RunReport;
      const expiry = report.checks.find((c) => c.id === 'AUTH-TOKEN-EXPIRY')!;
      expect(expiry.grade).toBe('INCONCLUSIVE');
      expect(expiry.message).toBe(`interrupted (${signal}) while this check ran`);
      expect(report.checks.some((c) => c.grade === 'PASS')).toBe(true);
      expect(run.output()).toMatch(/^summary: \d+ checks in [\d.]+ s: .*INCONCLUSIVE/m);
      expect(leftIn(temp)).toEqual([]);
    },
  );

  it.each([
    ['SIGTERM', 143],
    // A closed terminal, a dropped SSH session: before, exit 129 with k6 loading on, no report, the temp folder left.
    ['SIGHUP', 129],
  ] as const)(
    '%s during load: exit %i, k6 gone and silent, phases INCONCLUSIVE "interrupted", no temp folder',
    {
      timeout: 90_000,
    },
    async (signal, exitCode) => {
      target = await startLoadTarget();
      const { file, env } = profileFile(target.profile);
      const reports = tmp();
      const temp = tmp();
      const run = spawnHarness(
        ['load', '--profile', file, '--scenario', 'transactions', '--report-dir', reports],
        { ...env, TMPDIR: temp },
      );
      await run.waitFor(/harness load: transactions against/);
      // k6 is loading the target: well past the pre-flight's one API call.
      while (target.apiRequests.length < 200) await delay(100);
      const k6 = k6ChildrenOf(run.child.pid!);
      expect(k6).toHaveLength(1);
      run.child.kill(signal);
      const { code } = await run.exited;
      expect(code, run.output()).toBe(exitCode);
      expect(alive(k6[0]!)).toBe(false);
      const sent = target.apiRequests.length;
      await delay(1500);
      expect(target.apiRequests.length).toBe(sent);
      expect(leftIn(temp)).toEqual([]);
      const junit = readFileSync(
        join(realpathSync(join(reports, 'latest')), 'load-transactions.xml'),
        'utf8',
      );
      expect(junit).toContain(`interrupted (${signal}) before this phase ended`);
      expect(run.output()).toMatch(/^summary: 3 phases: .*INCONCLUSIVE/m);
    },
  );

  it('SIGKILL of harness during load (a CI job timeout): k6 gone within seconds, no temp folder', {
    timeout: 90_000,
  }, async () => {
    target = await startLoadTarget();
    const { file, env } = profileFile(target.profile);
    const temp = tmp();
    const run = spawnHarness(
      ['load', '--profile', file, '--scenario', 'transactions', '--report-dir', tmp()],
      { ...env, TMPDIR: temp },
    );
    await run.waitFor(/harness load: transactions against/);
    while (target.apiRequests.length < 200) await delay(100);
    const [k6] = k6ChildrenOf(run.child.pid!);
    expect(leftIn(temp).some((name) => name.startsWith('harness-k6-'))).toBe(true);
    run.child.kill('SIGKILL');
    await run.exited;
    // Before the watchdog, k6 loaded the target to the end of its plan, and the folder stayed.
    const by = Date.now() + 8_000;
    while ((alive(k6!) || leftIn(temp).length > 0) && Date.now() < by) await delay(200);
    expect(alive(k6!)).toBe(false);
    expect(leftIn(temp)).toEqual([]);
    const sent = target.apiRequests.length;
    await delay(1000);
    expect(target.apiRequests.length).toBe(sent);
  });

  it('SIGKILL of k6 (the OOM killer): the phase its last checkpoint holds is judged, the rest say why not', {
    timeout: 90_000,
  }, async () => {
    target = await startLoadTarget();
    const { file, env } = profileFile(target.profile);
    const reports = tmp();
    const run = spawnHarness(
      ['load', '--profile', file, '--scenario', 'transactions', '--report-dir', reports],
      env,
    );
    // The first phase is over (and its graceful stop with it) once the third has begun.
    await run.waitFor(/phase knee_transactions started/);
    await delay(500);
    const [k6] = k6ChildrenOf(run.child.pid!);
    process.kill(k6!, 'SIGKILL');
    const { code } = await run.exited;
    // Before the checkpoint, exit 4: no report and no JUnit at first, then every phase unjudged.
    expect([1, 5], run.output()).toContain(code);
    const latest = realpathSync(join(reports, 'latest'));
    expect(readdirSync(join(latest, 'runners'))).toEqual(['runner-1.checkpoint.json']);
    const { grades } = JSON.parse(readFileSync(join(latest, 'load-transactions-summary.json'), 'utf8')) as {
      grades: { phase: string; grade: string; message: string }[];
    };
    const within = grades.find((g) => g.phase === 'within_transactions');
    const knee = grades.find((g) => g.phase === 'knee_transactions');
    expect(within!.message).not.toMatch(/without its summary/);
    expect(within!.grade).not.toBe('FAIL');
    expect(knee!.grade).toBe('INCONCLUSIVE');
    expect(knee!.message).toMatch(
      /^k6 instance 1 ended \(exit 137\) without its summary; its last checkpoint, [\d.]+ s into the run, came before this phase ended$/,
    );
  });

  it('SIGINT during the pre-flight: exit 130, k6 never started, every phase INCONCLUSIVE in the JUnit', {
    timeout: 60_000,
  }, async () => {
    target = await startLoadTarget({ slowCalls: 1, slowMs: 2000 });
    const { file, env } = profileFile(target.profile);
    const reports = tmp();
    const run = spawnHarness(
      ['load', '--profile', file, '--scenario', 'transactions', '--report-dir', reports],
      env,
    );
    while (target.apiRequests.length < 1) await delay(50);
    run.child.kill('SIGINT');
    const { code } = await run.exited;
    expect(code, run.output()).toBe(130);
    expect(run.output()).not.toMatch(/\[k6\]/);
    expect(target.apiRequests).toHaveLength(1);
    const junit = readFileSync(join(realpathSync(join(reports, 'latest')), 'load-transactions.xml'), 'utf8');
    expect(
      junit.match(/<error message="interrupted \(SIGINT\) before k6 started" type="INCONCLUSIVE">/g),
    ).toHaveLength(3);
  });
});
