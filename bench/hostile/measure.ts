// Runs one hostile mode through the real CLI, as a user would (`/usr/bin/time node bin/harness.js ...`), and measures
// what it cost and what it let out: wall, exit code, peak RSS, every secret it was given found in stdout, stderr or
// any file the run wrote (reports, k6 summaries, an unpacked archive), processes and temp folders it left behind.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { filesUnder, secretsIn } from '../../test/support/secrets-echo.ts';

/** HARNESS_BIN measures another build, e.g. one of the commit before a fix. */
const BIN = process.env.HARNESS_BIN ?? resolve(import.meta.dirname, '../../bin/harness.js');

export interface Setup {
  readonly args: string[];
  readonly env?: Record<string, string>;
  /** Every secret the run is given, by name. */
  readonly secrets?: Record<string, string>;
  /** Tokens the target issued, read once the run is over. */
  readonly issued?: () => readonly string[];
  /** Sends the signal once the run is far enough: to harness, or (`k6`) to the k6 processes it started. */
  readonly interrupt?: (
    signal: (name: NodeJS.Signals, to?: 'k6') => void,
    output: () => string,
  ) => Promise<void>;
  /** What the target saw, once the run is over (e.g. token requests counted). */
  readonly note?: () => string;
  /**
   * What the mode itself forbids, once the run is over (e.g. a request where a redirect pointed, a control character
   * on stdout), read while the run's folder still holds what it wrote.
   */
  readonly problems?: (output: {
    readonly stdout: string;
    readonly stderr: string;
  }) => string[] | Promise<string[]>;
  /** A run still going after this long has hung (a FIFO read, a slow target outliving its deadline): killed. */
  readonly hangsAfterSeconds?: number;
  /** Peak RSS above this is a problem (a bomb decoded, an input read whole). */
  readonly maxRssMb?: number;
  /** How long after harness exits its children must be gone (default 1.5 s). */
  readonly settleMs?: number;
  readonly close?: () => Promise<void>;
}

export interface Mode {
  /** The exit codes issue 13 allows. */
  readonly exits: readonly number[];
  /** Builds the target and the command in `work`, the run's own folder (its cwd; reports go to work/reports). */
  readonly setup: (work: string) => Promise<Setup>;
}

export interface Row {
  readonly mode: string;
  readonly wall: string;
  readonly exit: number | null;
  readonly rssMb: number;
  readonly found: string[];
  readonly verdict: string;
  readonly problems: string[];
}

const procEntries = () => readdirSync('/proc').filter((name) => /^\d+$/.test(name));

/** The process `pid` started: the node that /usr/bin/time runs, which is the one to signal. */
const childOf = (pid: number): number =>
  Number(
    procEntries().find((name) => {
      try {
        const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid;
      } catch {
        return false;
      }
    }),
  );

/** Processes still carrying the run's mark in their environment: children (k6, Toxiproxy) harness left behind. */
const leftBehind = (mark: string): number[] =>
  procEntries()
    .filter((name) => {
      try {
        return readFileSync(`/proc/${name}/environ`, 'latin1').split('\0').includes(mark);
      } catch {
        return false;
      }
    })
    .map(Number);

/** Unpacks every .tgz the run wrote (not the inputs a mode hands it) so its files are searched too. */
const unpackArchives = async (dir: string, before: Set<string>) => {
  for (const name of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    if (!name.endsWith('.tgz') || before.has(name)) continue;
    const into = join(dir, `${name}.unpacked`);
    mkdirSync(into);
    await new Promise((done) => spawn('tar', ['-xzf', join(dir, name), '-C', into]).once('exit', done));
  }
};

export const measure = async (name: string, mode: Mode): Promise<Row> => {
  const work = mkdtempSync(join(tmpdir(), 'harness-bench-'));
  const temp = join(work, '.tmp');
  mkdirSync(temp);
  const setup = await mode.setup(work);
  const inputs = new Set(readdirSync(work, { recursive: true, encoding: 'utf8' }));
  const mark = `HARNESS_BENCH_RUN=${name}-${process.pid}`;
  const time = spawn('/usr/bin/time', ['-f', '%e %M', process.execPath, BIN, ...setup.args], {
    cwd: work,
    env: { ...process.env, ...setup.env, TMPDIR: temp, HARNESS_BENCH_RUN: mark.split('=')[1] },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  time.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
  time.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
  const exited = new Promise<number | null>((done) => time.once('exit', (code) => done(code)));
  if (setup.interrupt) {
    await delay(300);
    const node = childOf(time.pid!);
    const k6 = () =>
      leftBehind(mark).filter((pid) => readFileSync(`/proc/${pid}/cmdline`, 'latin1').includes('k6\0run\0'));
    await setup.interrupt(
      (signal, to) => {
        for (const pid of to === 'k6' ? k6() : [node]) process.kill(pid, signal);
      },
      () => stdout + stderr,
    );
  }
  let hangs = false;
  const hung = setup.hangsAfterSeconds
    ? setTimeout(() => {
        hangs = true;
        process.kill(childOf(time.pid!), 'SIGKILL');
      }, setup.hangsAfterSeconds * 1000)
    : undefined;
  const exit = await exited;
  clearTimeout(hung);
  // A child left behind goes on running after harness is gone.
  await delay(setup.settleMs ?? 1500);
  const orphans = leftBehind(mark);
  for (const pid of orphans) process.kill(pid, 'SIGKILL');
  const note = setup.note?.() ?? '';
  const own = (await setup.problems?.({ stdout, stderr })) ?? [];
  await setup.close?.();
  // tsx, which runs harness from source, keeps its cache there.
  const tempLeft = readdirSync(temp).filter((entry) => !entry.startsWith('tsx-'));
  rmSync(temp, { recursive: true, force: true });
  await unpackArchives(work, inputs);
  const measured = /(?:Command (?:exited|terminated) [^\n]*\n)?([\d.]+) (\d+)\s*$/.exec(stderr);
  const texts = filesUnder(work);
  texts.set('stdout', stdout);
  const errors = measured ? stderr.slice(0, measured.index) : stderr;
  texts.set('stderr', errors);
  const tokens = Object.fromEntries((setup.issued?.() ?? []).map((token, i) => [`token ${i}`, token]));
  const found = secretsIn(texts, { ...setup.secrets, ...tokens });
  if (process.env.HARNESS_BENCH_KEEP) console.error(`${name}: kept ${work}`);
  else rmSync(work, { recursive: true, force: true });
  const lastLine = (stdout.trim() || errors.trim()).split('\n').at(-1) ?? '';
  const summaries = stdout.match(/^summary: .*$/gm)?.join(' / ');
  const verdict = summaries ?? lastLine.slice(0, 200);
  const rssMb = measured ? Math.round(Number(measured[2]) / 1024) : 0;
  const problems = [
    ...(hangs ? [`still running after ${setup.hangsAfterSeconds} s (killed)`] : []),
    ...(setup.maxRssMb !== undefined && rssMb > setup.maxRssMb
      ? [`peak RSS ${rssMb} MB over ${setup.maxRssMb} MB`]
      : []),
    ...(mode.exits.includes(exit ?? -1) ? [] : [`exit ${exit}, expected ${mode.exits.join(' or ')}`]),
    ...(found.length > 0 ? [`secrets found: ${found.join(', ')}`] : []),
    ...(orphans.length > 0 ? [`${orphans.length} processes left running (killed)`] : []),
    ...(tempLeft.length > 0 ? [`temp left: ${tempLeft.join(', ')}`] : []),
    ...own,
  ];
  return {
    mode: name,
    wall: measured ? `${measured[1]} s` : '?',
    exit,
    rssMb,
    found,
    verdict: note ? `${verdict}; ${note}` : verdict,
    problems,
  };
};
