// A k6-operator run without a cluster: the manifests `harness load --k8s` writes, run as the operator would run them
// (the runner command lines it generates, kept in test/fixtures/k6-operator/runner-jobs.json), against the embedded
// server at a low limit (80 / second: at that rate each runner reads the target's clock to some 40 ms). The runners
// start paused, the starter's PATCH resumes them, their output is collected as `kubectl logs` gives it (stdout and
// stderr of the container), and `harness load merge --from-logs` grades it: PASS from all four, every VU starting
// with a token its runner's setup() fetched and sealed; never FAIL with one lost, one twice, or one whose setup()
// failed.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { delimiter, dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoadSummary } from '../../core/evidence.ts';
import { summariesInLogs } from '../../core/summary-markers.ts';
import { openToken, type SealedToken, sealingKey } from '../../load/lib/token-seal.ts';
import { findK6, k6Version } from '../../src/k6-driver/k6.ts';
import { type RunningReferenceServer, startReferenceServer } from '../../src/reference/index.ts';
import { harnessVersion } from '../../src/version.ts';
import { BIN, tmp } from '../cli/run.ts';
import { envValue, generateK8s } from './k8s-generate.ts';

interface Job {
  readonly name: string;
  readonly command: readonly string[];
  readonly env: readonly string[];
}

const JOBS = JSON.parse(
  readFileSync(resolve(import.meta.dirname, '../fixtures/k6-operator/runner-jobs.json'), 'utf8'),
) as { runners: Job[]; initializer: Job; starter: Job };

/** The starter's request body, as its `curl ... -d '<body>'` sends it to every runner. */
const RESUME = /-d '([^']+)'/.exec(JOBS.starter.command.join(' '))![1]!;

const freePort = () =>
  new Promise<number>((done) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => done(port));
    });
  });

interface Runner {
  readonly port: number;
  readonly child: ChildProcess;
  /** What `kubectl logs` shows for the runner's pod: the container's stdout and stderr, as they came. */
  readonly logs: () => string;
  readonly exited: Promise<number | null>;
}

const startRunner = (command: readonly string[], env: NodeJS.ProcessEnv, port: number): Runner => {
  const [, ...args] = command;
  const child = spawn(findK6(), args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let logs = '';
  child.stdout!.on('data', (chunk: Buffer) => (logs += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (logs += chunk.toString()));
  const exited = new Promise<number | null>((done) => child.once('close', done));
  return { port, child, logs: () => logs, exited };
};

/** The operator starts the runners once each answers its readiness probe, GET /v1/status. */
const ready = async (runner: Runner) => {
  for (;;) {
    try {
      if ((await fetch(`http://127.0.0.1:${runner.port}/v1/status`)).ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 200));
  }
};

/**
 * What the runner's REST API serves as its setup data (GET /v1/setup) once setup() has returned, as anyone who can
 * reach the pod's port may read it; '' when the runner ended first.
 */
const servedSetup = async (runner: Runner): Promise<string> => {
  while (runner.child.exitCode === null) {
    try {
      const body = await (await fetch(`http://127.0.0.1:${runner.port}/v1/setup`)).text();
      if ((JSON.parse(body) as SetupResource).data.attributes.data !== undefined) return body;
    } catch {}
    await new Promise((r) => setTimeout(r, 200));
  }
  return '';
};

interface SetupResource {
  readonly data: {
    readonly attributes: { readonly data?: { readonly tokens?: Record<string, SealedToken> } };
  };
}

let server: RunningReferenceServer;
let dir: string;
let logs: string[];
let failedSetupLog: string;
let refusedSummary: LoadSummary;
let testRunEnv: string[];
let setupServed: string[];
let runnerEnv: NodeJS.ProcessEnv;
let roles: string[];
let initializerEnv: NodeJS.ProcessEnv;
const runners: ChildProcess[] = [];

beforeAll(async () => {
  server = await startReferenceServer({ limits: { 'transaction-event': { count: 80, per: 'second' } } });
  const generated = await generateK8s(server, [
    '--instances',
    String(JOBS.runners.length),
    '--scenario',
    'transactions',
    '--duration',
    '3s',
    '--start-in',
    '20s',
  ]);
  const { testRun, configMap } = generated;
  testRunEnv = testRun.spec.runner.env.map((e) => e.name);
  // The ConfigMap as the operator mounts it: one file per key, in the folder the script path names.
  dir = tmp();
  for (const [key, text] of Object.entries(configMap.data)) writeFileSync(join(dir, key), text);
  const secrets = {
    HARNESS_SECRETS: JSON.stringify(
      Object.fromEntries(Object.entries(server.clients).map(([role, c]) => [role, c.client_secret])),
    ),
  };
  const envOf = (job: Job, from = testRun.spec.runner.env): NodeJS.ProcessEnv => {
    const entries = new Map(from.map((e) => [e.name, e]));
    return {
      HOME: dir,
      ...Object.fromEntries(job.env.map((name) => [name, envValue(entries.get(name)!, configMap, secrets)])),
    };
  };
  initializerEnv = envOf(JOBS.initializer, testRun.spec.initializer.env);
  runnerEnv = envOf(JOBS.runners[0]!);
  roles = Object.keys((JSON.parse(configMap.data['plan.json']!) as { clients: object }).clients);
  const commandOf = (job: Job, port: number) =>
    job.command.map((arg) =>
      arg === `/test/${testRun.spec.script.configMap.file}`
        ? join(dir, testRun.spec.script.configMap.file)
        : arg === '--address=0.0.0.0:6565'
          ? `--address=127.0.0.1:${port}`
          : arg,
    );
  const started = await Promise.all(
    JOBS.runners.map(async (job) => {
      const port = await freePort();
      return startRunner(commandOf(job, port), envOf(job), port);
    }),
  );
  runners.push(...started.map((r) => r.child));
  await Promise.all(started.map(ready));
  // The starter: one PATCH after another, as its `curl ...;curl ...` does.
  for (const runner of started) {
    const res = await fetch(`http://127.0.0.1:${runner.port}/v1/status`, {
      method: 'PATCH',
      headers: { 'Content-Type': 'application/json' },
      body: RESUME,
    });
    expect(res.status).toBe(200);
  }
  setupServed = await Promise.all(started.map(servedSetup));
  const codes = await Promise.all(started.map((r) => r.exited));
  expect(codes).toEqual(started.map(() => 0));
  // A fifth copy of the last runner whose setup() cannot wait for the start: k6 ends it and still writes a summary.
  const last = JOBS.runners.at(-1)!;
  const failedPort = await freePort();
  const failedSetup = startRunner(
    commandOf(last, failedPort).filter((arg) => arg !== '--paused'),
    { ...envOf(last), HARNESS_START_AT: String(Date.now() + 60_000), K6_SETUP_TIMEOUT: '1s' },
    failedPort,
  );
  // A sixth whose client secrets are wrong: its setup() gets no token, so its VUs ask for their own at their turns.
  const refusedPort = await freePort();
  const refused = startRunner(
    commandOf(last, refusedPort).filter((arg) => arg !== '--paused'),
    { ...envOf(last), HARNESS_SECRETS: JSON.stringify(Object.fromEntries(roles.map((r) => [r, 'wrong']))) },
    refusedPort,
  );
  runners.push(failedSetup.child, refused.child);
  await Promise.all([failedSetup.exited, refused.exited]);
  refusedSummary = JSON.parse(summariesInLogs(refused.logs(), 'refused.log')[0]!.json!) as LoadSummary;
  logs = started.map((runner, i) => {
    const file = join(dir, `${JOBS.runners[i]!.name}.log`);
    writeFileSync(file, runner.logs());
    return file;
  });
  failedSetupLog = join(dir, 'failed-setup.log');
  writeFileSync(failedSetupLog, failedSetup.logs());
}, 180_000);

afterAll(async () => {
  for (const child of runners) if (child.exitCode === null) child.kill();
  await server?.close();
});

/** In the runners' folder: the reports go under its reports/, whatever takes `--report-dir`. */
const merge = (files: readonly string[]) =>
  new Promise<{ status: number | null; stdout: string; stderr: string }>((done) => {
    execFile(
      process.execPath,
      [BIN, 'load', 'merge', '--report-dir', join(dir, 'reports'), '--from-logs', ...files],
      { cwd: dir },
      (error, stdout, stderr) => done({ status: error ? (error.code as number) : 0, stdout, stderr }),
    );
  });

/** Each phase's grade line, its grade and its phase, from what the merge prints. */
const gradesOf = (stdout: string) => [...stdout.matchAll(/^(PASS|FAIL|WARN|INCONCLUSIVE)\s+(\S+).*$/gm)];

describe('a k6-operator run rehearsed without a cluster', () => {
  it('gives each runner the env of the TestRun, as the operator copies it into its runner jobs', () => {
    for (const job of JOBS.runners) expect(job.env).toEqual(testRunEnv);
  });

  it('merges the four runners as one run: PASS, no VU waiting for a token', async () => {
    const result = await merge(logs);
    const graded = gradesOf(result.stdout);
    expect(
      graded.map((m) => [m[1], m[2]]),
      result.stdout,
    ).toEqual([
      ['PASS', 'within_transactions'],
      ['PASS', 'over_transactions'],
      ['PASS', 'knee_transactions'],
    ]);
    expect(result.status).toBe(0);
    const report = JSON.parse(
      // `reports:` names the run's folder; the merged summary is in it.
      readFileSync(join(/^reports: (\S+)/m.exec(result.stdout)![1]!, 'load-merged-summary.json'), 'utf8'),
    ) as LoadSummary;
    expect(report.setupTokenRequests).toBe(JOBS.runners.length * roles.length);
    expect(report.phases.map((p) => p.noToken)).toEqual([0, 0, 0]);
    // Who ran each share: the harness that wrote the manifests, and the k6 that sent the token requests.
    expect(new Set(report.runners!.map((r) => `${r.harnessVersion} ${r.k6Version}`))).toEqual(
      new Set([`${harnessVersion()} ${k6Version(findK6())}`]),
    );
    // Pods name no host in common: their clocks were compared through the target's Date, and found in step.
    expect(report.runners!.map((r) => r.clock!.host)).toEqual(JOBS.runners.map(() => ''));
    expect(report.startSpread!.ms).toBeLessThan(100);
    // Every token the server issued went to a setup(): the four runners' and the fifth's whose setup() timed out.
    expect(server.issuedTokens()).toHaveLength((JOBS.runners.length + 1) * roles.length);
  });

  it('hands the tokens to the VUs sealed: GET /v1/setup and the logs hold none the server issued in clear', async () => {
    const issued = server.issuedTokens();
    const key = await sealingKey(runnerEnv.HARNESS_SECRETS!, runnerEnv.HARNESS_RUN_ID!);
    for (const [i, served] of setupServed.entries()) {
      for (const token of issued) {
        expect(served).not.toContain(token);
        expect(readFileSync(logs[i]!, 'utf8')).not.toContain(token);
      }
      // What is there opens, with the runners' secrets and run id, to tokens the server issued, one per role.
      const { tokens } = (JSON.parse(served) as SetupResource).data.attributes.data!;
      expect(Object.keys(tokens ?? {}).sort()).toEqual([...roles].sort());
      for (const [role, sealed] of Object.entries(tokens!))
        expect(issued).toContain((await openToken(key, role, sealed))?.token);
    }
  });

  it('runs the initializer as the operator would: k6 archive and k6 inspect pass, and the archive holds no secret', async () => {
    // Its shell script, with the operator's /test and /tmp paths moved to the runners' folder.
    const script = JOBS.initializer.command[2]!.replace(/\/(test|tmp)\//g, `${dir}/`);
    const env = { ...initializerEnv, PATH: `${dirname(findK6())}${delimiter}${process.env.PATH}` };
    const { stdout } = await promisify(execFile)('sh', ['-c', script], { env, cwd: dir });
    expect(JSON.parse(stdout).maxVUs).toBeGreaterThan(0);
    const archive = readFileSync(join(dir, 'probe.js.archived.tar'), 'latin1');
    for (const client of Object.values(server.clients)) expect(archive).not.toContain(client.client_secret);
    expect(archive).toContain('HARNESS_PLAN');
  });

  it('falls back where setup() got no token: each VU requests its own at its turns, as without sealed tokens', () => {
    expect(refusedSummary.setupTokenRequests).toBe(roles.length);
    const failed = refusedSummary.phases.map((p) => p.tokenFailures?.count ?? 0);
    expect(failed.reduce((a, b) => a + b)).toBeGreaterThan(0);
    expect(refusedSummary.phases.every((p) => p.admitted === 0 && p.noToken > 0)).toBe(true);
  });

  it.each([
    ['one runner lost', () => logs.slice(0, 3), 'no runner covers segment 3/4:1 (missing)'],
    ['one runner twice', () => [logs[0]!, logs[0]!, logs[1]!, logs[2]!], 'segment 0:1/4 covered twice'],
    [
      'one runner whose setup() failed',
      () => [...logs.slice(0, 3), failedSetupLog],
      'failed-setup.log line 4 (segment 3/4:1): setup() did not complete',
    ],
  ])('%s: every phase INCONCLUSIVE naming it, never FAIL', async (_, files, why) => {
    const result = await merge(files());
    expect(result.status).toBe(5);
    const graded = gradesOf(result.stdout);
    expect(graded).toHaveLength(3);
    for (const [line, grade] of graded) {
      expect(grade).toBe('INCONCLUSIVE');
      expect(line).toContain(why);
    }
  });
});
