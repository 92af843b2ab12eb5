// What a costly target and a signal cost `harness`, measured as a user runs it (`/usr/bin/time node bin/harness.js`),
// one row per mode: wall, exit code, peak RSS (the largest of harness and k6), secrets found in any output or report,
// and the verdicts. `npx tsx bench/load-bounds.ts [MODE...]`; Linux (it reads /proc). Modes:
//   body-16mb         load --scenario transactions --duration 3s, every API answer 16 MB
//   token-503-600vus  the same, tokens failing after the pre-flight, ~600 VUs (an 800 ms pre-flight round trip)
//   sigint-conformance conformance against the embedded server, SIGINT once a check waits
//   sigterm-load      load --scenario transactions, SIGTERM once k6 has sent 200 requests
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { tmp } from '../test/cli/run.ts';
import { profileFile } from '../test/load/run-load.ts';
import { type LoadTarget, type LoadTargetOptions, startLoadTarget } from '../test/support/load-target.ts';

const BIN = resolve(import.meta.dirname, '../bin/harness.js');

interface Mode {
  readonly target?: LoadTargetOptions;
  readonly limit?: number;
  readonly args: (profile: string | undefined) => string[];
  /** Sends the signal when the run is far enough. */
  readonly interrupt?: (child: ChildProcess, output: () => string, target?: LoadTarget) => Promise<void>;
}

const loadArgs = (profile: string | undefined, extra: string[]) => [
  'load',
  ...(profile ? ['--profile', profile] : []),
  '--scenario',
  'transactions',
  ...extra,
];

const MODES: Record<string, Mode> = {
  'body-16mb': {
    target: { apiBodyBytes: 16 * 1024 * 1024 },
    args: (profile) => loadArgs(profile, ['--duration', '3s']),
  },
  'token-503-600vus': {
    target: { tokens: 3, expiresIn: 2, slowCalls: 1, slowMs: 800 },
    limit: 200,
    args: (profile) => loadArgs(profile, ['--duration', '3s']),
  },
  'sigint-conformance': {
    args: () => ['conformance'],
    interrupt: async (child, output) => {
      while (!/⏳ AUTH-TOKEN-EXPIRY: waiting/.test(output())) await delay(50);
      child.kill('SIGINT');
    },
  },
  'sigterm-load': {
    target: {},
    args: (profile) => loadArgs(profile, []),
    interrupt: async (child, _output, target) => {
      while ((target?.apiRequests.length ?? 0) < 200) await delay(50);
      child.kill('SIGTERM');
    },
  },
};

/** The node process /usr/bin/time started, which is the one to signal (time itself passes no signal on). */
const childOf = (pid: number): number =>
  Number(
    readdirSync('/proc')
      .filter((name) => /^\d+$/.test(name))
      .find((name) => {
        try {
          const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
          return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid;
        } catch {
          return false;
        }
      }),
  );

const measure = async (name: string, mode: Mode) => {
  const target = mode.target ? await startLoadTarget(mode.target) : undefined;
  if (target && mode.limit)
    target.profile.limits = { 'transaction-event': { count: mode.limit, per: 'second' } };
  const profile = target ? profileFile(target.profile) : undefined;
  const reports = tmp();
  const temp = tmp();
  const args = [...mode.args(profile?.file), '--report-dir', reports];
  const time = spawn('/usr/bin/time', ['-f', '%e s %M KB', process.execPath, BIN, ...args], {
    env: { ...process.env, ...profile?.env, TMPDIR: temp },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  for (const stream of [time.stdout, time.stderr]) stream.on('data', (chunk: Buffer) => (out += chunk));
  const exited = new Promise<number | null>((done) => time.once('exit', (code) => done(code)));
  if (mode.interrupt) {
    await delay(200);
    const node = childOf(time.pid!);
    await mode.interrupt({ kill: (signal) => process.kill(node, signal) } as ChildProcess, () => out, target);
  }
  const code = await exited;
  const sentAtExit = target?.apiRequests.length ?? 0;
  const latest = join(reports, 'latest');
  const reportFiles = existsSync(latest) ? readdirSync(realpathSync(latest)) : [];
  const reportText = reportFiles.map((file) => readFileSync(join(latest, file), 'utf8')).join('\n');
  // A k6 left behind goes on loading the target.
  await delay(1500);
  const after = (target?.apiRequests.length ?? 0) - sentAtExit;
  // tsx, which runs harness from source, keeps its cache there.
  const tempLeft = readdirSync(temp).filter((entry) => !entry.startsWith('tsx-')).length;
  const secrets = ['load-secret', ...(target?.tokenRequests.map((_, i) => `token-${i + 1}"`) ?? [])];
  const found = secrets.filter((s) => out.includes(s) || reportText.includes(s)).length;
  const [wall, rss] = /([\d.]+) s (\d+) KB/.exec(out)?.slice(1) ?? ['?', '0'];
  const verdict = /^summary: .*$/m.exec(out)?.[0] ?? '(no summary)';
  const requests = target
    ? `; ${target.tokenRequests.length} token / ${sentAtExit} API requests, ${after} more after exit`
    : '';
  console.log(
    `${name} | ${wall} s | ${code} | ${Math.round(Number(rss) / 1024)} MB | ${found} | ${verdict}; ` +
      `${reportFiles.length} reports, ${tempLeft} temp folders left${requests}`,
  );
  await target?.close();
};

for (const name of process.argv.slice(2).length > 0 ? process.argv.slice(2) : Object.keys(MODES)) {
  const mode = MODES[name];
  if (mode === undefined) throw new Error(`no mode ${name}: ${Object.keys(MODES).join(', ')}`);
  await measure(name, mode);
}
