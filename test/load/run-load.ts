// Runs `harness load` as a user would, against a reference server started here (on loopback, or behind Toxiproxy),
// and reads back what it wrote.
import { readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { LoadSummary } from '../../core/evidence.ts';
import { type ReferenceServerOptions, startReferenceServer } from '../../src/reference/index.ts';
import type { Profile } from '../../src/spec/index.ts';
import { harness, profileFile, secretsOf, tmp } from '../cli/run.ts';

export const runLoad = async (profile: Profile, args: string[]) => {
  const { file, env } = profileFile(profile);
  const dir = tmp();
  const result = await harness(['load', '--profile', file, '--report-dir', dir, ...args], env);
  const latest = realpathSync(join(dir, 'latest'));
  // Reports, then each runner's summary (runners/runner-<i>.json).
  const names = readdirSync(latest, { recursive: true, encoding: 'utf8' }).filter((f) =>
    statSync(join(latest, f)).isFile(),
  );
  const summaryFile = names.find((f) => /-summary\.json$/.test(f))!;
  const summary = JSON.parse(readFileSync(join(latest, summaryFile), 'utf8')) as LoadSummary;
  const artifacts = names.map((f) => readFileSync(join(latest, f), 'utf8'));
  /** Each phase's grade, from the lines `harness load` prints. */
  const graded = [
    ...`${result.stdout}\n${result.stderr}`.matchAll(/^(PASS|FAIL|WARN|INCONCLUSIVE)\s+(\S+)/gm),
  ];
  const grades = Object.fromEntries(graded.map((m) => [m[2]!, m[1]!]));
  return { ...result, latest, names, summary, artifacts, grades };
};

/** A lower transaction limit keeps k6 and the server light on a shared 2-core machine; the rules are the same. */
const LIGHT: ReferenceServerOptions = {
  minuteMs: 2000,
  limits: { 'transaction-event': { count: 200, per: 'second' } },
};

/** `harness load` against a reference server started for it, with the secrets it handed out. */
export const against = async (server: ReferenceServerOptions, args: string[]) => {
  const reference = await startReferenceServer({ ...LIGHT, ...server });
  try {
    return { ...(await runLoad(reference.profile(), args)), secrets: secretsOf(reference) };
  } finally {
    await reference.close();
  }
};

export const TRANSACTIONS = ['--scenario', 'transactions', '--duration', '4s'];
const NO_FAIL = /^summary: \d+ phases: (?!.*FAIL)/m;
/**
 * How a phase INCONCLUSIVE for the run's own shortfall says so: k6 starved ("harness could not offer"), or round trips
 * too jittery for a reading a little off to be proven either way (a runner's scheduling stall behind `far` once
 * stretched them to 420 ms, and a faithful sliding log read 2 % low). Neither blames the server.
 */
const STARVED = /harness could not offer|round trips the evidence cannot prove it/;

type Run = { status: number | null; stdout: string; stderr: string };

const inconclusiveLines = (stdout: string) => stdout.split('\n').filter((l) => l.startsWith('INCONCLUSIVE'));

/**
 * A faithful server is never FAILed: the run passes (0), or, where k6 was starved on this shared machine (or the
 * network stalled), gives no verdict (5) naming the run's own shortfall for every phase it could not decide, never
 * the server.
 */
export const expectNoFail = (run: Run) => {
  expect([0, 5], run.stdout + run.stderr).toContain(run.status);
  expect(run.stdout).toMatch(NO_FAIL);
  for (const line of inconclusiveLines(run.stdout)) expect(line).toMatch(STARVED);
};

/**
 * Runs once more when the first run gave no verdict because k6 was starved on this shared machine or the network
 * stalled (every INCONCLUSIVE names the run's own shortfall): the test asks for a measurement, and the first run
 * rightly had none.
 */
export const measured = async <R extends Run>(run: () => Promise<R>): Promise<R> => {
  const first = await run();
  const starved = first.status === 5 && inconclusiveLines(first.stdout).every((l) => STARVED.test(l));
  return starved ? run() : first;
};

export const FAITHFUL = ['--scenario', 'transactions,execute', '--duration', '4s'];
