// `harness load merge` on real runner summaries: four k6 runners started as the k6-operator starts them (one
// execution segment each on the command line, the same environment), plus a runner of another run and one whose
// setup() timed out, against the embedded reference server at a low limit. Whatever is lost, doubled, foreign or
// failed, the merge says INCONCLUSIVE naming it, never FAIL and never PASS.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoadSummary } from '../../core/evidence.ts';
import type { PhaseVerdict } from '../../core/verdict.ts';
import { runLoadMergeCommand } from '../../src/cli/load-merge.ts';
import { InputError } from '../../src/errors.ts';
import { findK6 } from '../../src/k6-driver/k6.ts';
import { type PreparedRunner, prepareRunners, SCRIPT } from '../../src/k6-driver/run.ts';
import { type RunningReferenceServer, startReferenceServer } from '../../src/reference/index.ts';
import { harness, secretsOf, tmp } from '../cli/run.ts';

// 80 / second: at that rate each runner reads the target's clock to some 40 ms, which the clock tests need.
const LIMIT = { 'transaction-event': { count: 80, per: 'second' as const } };

/** k6 as the operator runs a runner: `--quiet`, its segment and the sequence as `--flag=value`, an instance tag. */
const runK6 = (k6: string, runner: PreparedRunner, index: number, env: NodeJS.ProcessEnv, log: string) =>
  new Promise<void>((done, fail) => {
    const segmentArgs = runner.args.flatMap((arg, i, all) =>
      arg.startsWith('--execution-segment') ? [`${arg}=${all[i + 1]}`] : [],
    );
    const child = spawn(k6, ['run', '--quiet', ...segmentArgs, '--tag', `instance_id=${index + 1}`, SCRIPT], {
      env: { ...runner.env, K6_WEB_DASHBOARD: 'false', HARNESS_SUMMARY_STDOUT: 'markers', ...env },
    });
    let output = '';
    for (const stream of [child.stdout, child.stderr])
      stream.on('data', (chunk: Buffer) => (output += chunk));
    child.once('error', fail);
    child.once('close', () => {
      writeFileSync(log, output);
      done();
    });
  });

interface Runners {
  readonly files: string[];
  readonly logs: string[];
}

/** Runners of one run of four (those in `started`), each writing its summary file and its log. */
const startRun = async (server: RunningReferenceServer, started: number[]) => {
  const dir = tmp();
  const { runners: prepared } = await prepareRunners({
    k6: findK6(),
    profile: server.profile(),
    plan: { scenarios: ['transactions'], durationMs: 3000 },
    instances: 4,
    dir,
    label: 'transactions',
    versions: { harness: 'test', k6: 'v2.2.0' },
  });
  const start = (i: number, name: string, env: NodeJS.ProcessEnv = {}) => {
    const file = join(dir, `${name}.json`);
    const log = join(dir, `${name}.log`);
    return { file, log, done: runK6(findK6(), prepared[i]!, i, { ...env, HARNESS_SUMMARY_JSON: file }, log) };
  };
  const runners = started.map((i) => start(i, `runner-${i + 1}`));
  // The last segment again, in the same run, with a setupTimeout shorter than its wait for the common start (put
  // far off, so that it times out however slowly k6 starts on a busy machine, and never sends a request).
  const timedOut = start(3, 'runner-4-setup-timed-out', {
    K6_SETUP_TIMEOUT: '1s',
    HARNESS_START_AT: String(Number(prepared[3]!.env.HARNESS_START_AT) + 60_000),
  });
  const done = Promise.all([...runners, timedOut].map((r) => r.done));
  return {
    done,
    runners: { files: runners.map((r) => r.file), logs: runners.map((r) => r.log) },
    failedSetup: { files: [timedOut.file], logs: [timedOut.log] },
  };
};

let servers: RunningReferenceServer[] = [];
let run: Runners;
let foreign: Runners;
let failedSetup: Runners;

beforeAll(async () => {
  servers = await Promise.all([1, 2].map(() => startReferenceServer({ minuteMs: 2000, limits: LIMIT })));
  const [main, other] = await Promise.all([
    startRun(servers[0]!, [0, 1, 2, 3]),
    // Another run of the same plan, against a server of its own so its load does not touch the run's limiter.
    startRun(servers[1]!, [0]),
  ]);
  await Promise.all([main.done, other.done]);
  run = main.runners;
  failedSetup = main.failedSetup;
  foreign = other.runners;
}, 120_000);

afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

const merge = async (files: string[], fromLogs = false) => {
  const result = await runLoadMergeCommand(files, { reportDir: tmp(), ...(fromLogs ? { fromLogs } : {}) });
  const report = JSON.parse(
    readFileSync(join(result.dir, 'load-merged-summary.json'), 'utf8'),
  ) as LoadSummary & {
    grades: (PhaseVerdict & { phase: string })[];
  };
  return { ...result, report };
};

const expectEveryPhaseInconclusive = (merged: Awaited<ReturnType<typeof merge>>, because: RegExp): void => {
  expect(merged.exitCode).toBe(5);
  expect(merged.report.grades).toHaveLength(3);
  for (const grade of merged.report.grades) {
    expect(grade.grade).toBe('INCONCLUSIVE');
    expect(grade.message).toMatch(because);
  }
};

/**
 * One whole run of a faithful server: PASS (exit 0), or where k6 was starved on this shared machine, INCONCLUSIVE
 * for that shortfall of harness's only (exit 5); never a FAIL, never a runner problem.
 */
const expectWhole = (merged: Awaited<ReturnType<typeof merge>>): void => {
  expect(merged.report.runnerProblems).toBeUndefined();
  expect(merged.report.grades.map((g) => g.phase).sort()).toEqual([
    'knee_transactions',
    'over_transactions',
    'within_transactions',
  ]);
  for (const { grade, message } of merged.report.grades) {
    expect(
      grade === 'PASS' || (grade === 'INCONCLUSIVE' && /^harness could not offer/.test(message)),
      message,
    ).toBe(true);
  }
  expect(merged.exitCode).toBe(merged.report.grades.every((g) => g.grade === 'PASS') ? 0 : 5);
};

describe('harness load merge, on real runner summaries', () => {
  it('grades all four runners as one run, each saying which segment of which run and plan it ran', async () => {
    const merged = await merge(run.files);
    expectWhole(merged);
    const runners = merged.report.runners!;
    expect(runners.map((r) => r.segment)).toEqual(['0:1/4', '1/4:1/2', '1/2:3/4', '3/4:1']);
    expect(new Set(runners.map((r) => `${r.runId} ${r.planDigest} ${r.sequence}`)).size).toBe(1);
    expect(runners[0]).toMatchObject({ setupCompleted: true, harnessVersion: 'test', k6Version: 'v2.2.0' });
    expect(runners[0]!.planDigest).toMatch(/^[0-9a-f]{64}$/);
    expect(merged.files.map((f) => f.slice(merged.dir.length + 1)).sort()).toEqual([
      'index.html',
      'load-merged-summary.html',
      'load-merged-summary.json',
      'load-merged.xml',
    ]);
  });

  it("records each runner's clock: one host's for the CLI's runners, the target's Date 0 ms from it, give or take a few", () => {
    const clocks = run.files.map(
      (file) => (JSON.parse(readFileSync(file, 'utf8')) as LoadSummary).runner!.clock!,
    );
    expect(new Set(clocks.map((c) => c.host)).size).toBe(1);
    expect(clocks[0]!.host).not.toBe('');
    for (const { offsetMs } of clocks) {
      // The server runs on this machine's clock: the offset is 0, and the bounds hold it.
      expect(offsetMs!.lo).toBeLessThanOrEqual(0);
      expect(offsetMs!.hi).toBeGreaterThanOrEqual(0);
      expect(offsetMs!.hi - offsetMs!.lo).toBeLessThan(100);
    }
  });

  it("compares runners on several machines by the target's Date: in step, one run; a clock off or unread, INCONCLUSIVE", async () => {
    // As pods write them: no host in common. A pod whose clock runs 300 ms behind the target's reads every
    // offset 300 ms higher (and counts its slots 300 ms late); one that got no Date header reads none.
    const asPod = (
      file: string,
      change: (offset: { lo: number; hi: number }) => object | undefined = (o) => o,
    ) => {
      const summary = JSON.parse(readFileSync(file, 'utf8')) as LoadSummary;
      const offsetMs = change(summary.runner!.clock!.offsetMs!);
      const pod = {
        ...summary,
        runner: { ...summary.runner, clock: { host: '', ...(offsetMs ? { offsetMs } : {}) } },
      };
      const copy = join(tmp(), file.slice(file.lastIndexOf('/') + 1));
      writeFileSync(copy, JSON.stringify(pod));
      return copy;
    };
    const inStep = await merge(run.files.map((file) => asPod(file)));
    expectWhole(inStep);
    expect(inStep.report.startSpread!.ms).toBeLessThan(100);
    const behind = (o: { lo: number; hi: number }) => ({ lo: o.lo + 300, hi: o.hi + 300 });
    const skewed = await merge(run.files.map((file, i) => (i === 1 ? asPod(file, behind) : asPod(file))));
    expectEveryPhaseInconclusive(
      skewed,
      /may lie over a tenth of a window apart: .*runner-2\.json may have started 3\d\d ms after/,
    );
    const unread = await merge(
      run.files.map((file, i) => (i === 2 ? asPod(file, () => undefined) : asPod(file))),
    );
    expectEveryPhaseInconclusive(
      unread,
      /starts cannot be compared: \S*runner-3\.json shares no host's clock/,
    );
  });

  it('names the segment of a lost runner', async () => {
    expectEveryPhaseInconclusive(
      await merge(run.files.slice(0, 3)),
      /no runner covers segment 3\/4:1 \(missing\)/,
    );
  });

  it('names a runner counted twice', async () => {
    const twice = [run.files[0]!, run.files[1]!, run.files[1]!, run.files[2]!, run.files[3]!];
    expectEveryPhaseInconclusive(await merge(twice), /segment 1\/4:1\/2 covered twice \(duplicate: /);
  });

  it("leaves out another run's runner, naming it foreign and the segment it leaves uncovered", async () => {
    const mixed = [foreign.files[0]!, ...run.files.slice(1)];
    const merged = await merge(mixed);
    expectEveryPhaseInconclusive(
      merged,
      /runner-1\.json is foreign: run id [0-9a-f-]+ .*no runner covers segment 0:1\/4/,
    );
  });

  it('names a runner whose setup() timed out: its all-zero summary is no share of the evidence', async () => {
    const summary = JSON.parse(readFileSync(failedSetup.files[0]!, 'utf8')) as LoadSummary;
    expect(summary.runner).toMatchObject({ setupCompleted: false, segment: '3/4:1' });
    const merged = await merge([...run.files.slice(0, 3), failedSetup.files[0]!]);
    expectEveryPhaseInconclusive(
      merged,
      /runner-4-setup-timed-out\.json \(segment 3\/4:1\): setup\(\) did not complete/,
    );
  });

  it('reads the summaries back from kubectl logs --prefix output, and a cut-off one counts as missing', async () => {
    // Four pods' logs in one file, line by line in turn, as kubectl logs --prefix of several pods may interleave.
    const pods = run.logs.map((log, i) =>
      readFileSync(log, 'utf8')
        .split('\n')
        .map((line) => `[pod/harness-load-${i + 1}-abcde/k6] ${line}`),
    );
    const interleaved = Array.from({ length: Math.max(...pods.map((p) => p.length)) }, (_, i) =>
      pods.flatMap((p) => (p[i] === undefined ? [] : [p[i]])),
    ).flat();
    const logs = join(tmp(), 'pods.log');
    writeFileSync(logs, `${interleaved.join('\n')}\n`);
    const whole = await merge([logs], true);
    expectWhole(whole);
    expect(whole.report.runners!.map((r) => r.segment).sort()).toEqual([
      '0:1/4',
      '1/2:3/4',
      '1/4:1/2',
      '3/4:1',
    ]);
    const cut = readFileSync(run.logs[3]!, 'utf8');
    const truncated = join(tmp(), 'cut.log');
    writeFileSync(truncated, cut.slice(0, cut.indexOf('{"target"') + 200));
    const lost = await merge([...run.logs.slice(0, 3), truncated], true);
    expectEveryPhaseInconclusive(lost, /no runner covers segment 3\/4:1 \(missing\)/);
  });

  it('writes its reports into --report-dir, which the load command around it must not take', async () => {
    const dir = tmp();
    const merged = await harness(['load', 'merge', '--report-dir', dir, ...run.files]);
    expect(merged.stderr).not.toMatch(/^harness:/m);
    expect(readdirSync(dir, { recursive: true })).toContainEqual(
      expect.stringMatching(/load-merged-summary\.json$/),
    );
  });

  it('refuses what is no runner summary with exit 2 and one line naming the file', async () => {
    const dir = tmp();
    const write = (name: string, text: string) => {
      writeFileSync(join(dir, name), text);
      return join(dir, name);
    };
    // Through the CLI once, for the exit code and the one line; the other cases where the line is made.
    const notJson = await harness([
      'load',
      'merge',
      '--report-dir',
      dir,
      run.files[0]!,
      write('cut.json', '{"t":'),
    ]);
    expect(notJson.status).toBe(2);
    expect(notJson.stderr.trim()).toMatch(/^harness: \S+cut\.json: not JSON$/);
    expect(notJson.stdout).toBe('');
    const merged = (await merge(run.files)).dir;
    const refused = async (file: string) => {
      const error = await runLoadMergeCommand([run.files[0]!, file], { reportDir: dir }).catch(
        (e: Error) => e,
      );
      expect(error).toBeInstanceOf(InputError);
      return error as Error;
    };
    expect((await refused(write('other.json', '{"checks":[]}'))).message).toMatch(
      /other\.json: not a harness load summary$/,
    );
    expect((await refused(join(merged, 'load-merged-summary.json'))).message).toMatch(
      /load-merged-summary\.json: a merged report, not one runner summary$/,
    );
    expect((await refused(join(dir, 'absent.json'))).message).toMatch(
      /absent\.json: cannot be read \(ENOENT\)$/,
    );
    const noBlocks = runLoadMergeCommand([write('k6.log', 'no blocks')], { reportDir: dir, fromLogs: true });
    await expect(noBlocks).rejects.toThrow(/k6\.log: no harness runner summary between markers$/);
  });

  it('puts no client secret and no issued token in any runner summary or log', () => {
    const secrets = servers.flatMap(secretsOf);
    expect(secrets.length).toBeGreaterThan(4);
    for (const file of [...run.files, ...run.logs, ...foreign.files, ...failedSetup.files]) {
      const text = readFileSync(file, 'utf8');
      for (const secret of secrets) expect(text.includes(secret), `${secret} in ${file}`).toBe(false);
    }
  });
});
