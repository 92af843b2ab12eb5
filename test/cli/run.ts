// Runs the real `harness` binary, as a user would.
import { type ChildProcess, execFile, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { stringify } from 'yaml';
import type { RunningReferenceServer } from '../../src/reference/index.ts';
import type { Profile } from '../../src/spec/index.ts';

export const BIN = resolve(import.meta.dirname, '../../bin/harness.js');

export interface Finished {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

export interface Timed extends Finished {
  /** From the start of the process to its exit, leaving out any wait for a slot. */
  readonly wallMs: number;
}

/**
 * At most one harness process per core at once from one test file, however many of its tests run concurrently: the
 * runs time windows, and a run starved of CPU could miss its timing (vitest.config.ts runs three files at once, most
 * of them waiting). A freed slot passes straight to the next waiting run.
 */
const SLOTS = availableParallelism();
let busy = 0;
const waiting: (() => void)[] = [];
const acquire = async (): Promise<void> => {
  if (busy < SLOTS) busy++;
  else await new Promise<void>((take) => waiting.push(take));
};
const release = () => {
  const next = waiting.shift();
  if (next) next();
  else busy--;
};

/** For concurrent tests that run harness: a test's time includes its wait for a slot behind the runs ahead of it. */
export const SIDE_BY_SIDE = { timeout: 180_000 };

/** Asynchronous on purpose: a synchronous spawn would freeze an in-process server the command talks to. */
export const harness = async (
  args: string[],
  env: NodeJS.ProcessEnv = {},
  timeoutMs = 120_000,
): Promise<Timed> => {
  await acquire();
  const started = performance.now();
  try {
    return await new Promise((resolve) => {
      // A job summary of the machine running the tests is no place for the tests' runs.
      const options = { env: { ...process.env, GITHUB_STEP_SUMMARY: '', ...env }, timeout: timeoutMs };
      execFile(process.execPath, [BIN, ...args], options, (error, stdout, stderr) => {
        const status = error ? (typeof error.code === 'number' ? error.code : null) : 0;
        resolve({ status, stdout, stderr, wallMs: performance.now() - started });
      });
    });
  } finally {
    release();
  }
};

/** A command line harness printed, run by a shell in the repository's root as a person pastes it there. */
export const asPrinted = async (line: string, env: NodeJS.ProcessEnv = {}): Promise<Finished> => {
  await acquire();
  try {
    return await new Promise((done) => {
      const options = { cwd: resolve(import.meta.dirname, '../..'), env: { ...process.env, ...env } };
      execFile('sh', ['-c', line], options, (error, stdout, stderr) => {
        const status = error ? (typeof error.code === 'number' ? error.code : null) : 0;
        done({ status, stdout, stderr });
      });
    });
  } finally {
    release();
  }
};

/** Starts a long-running command and resolves once its stdout or stderr matches `ready`. */
export const startHarness = (
  args: string[],
  ready: RegExp,
  env: NodeJS.ProcessEnv = {},
): Promise<{ child: ChildProcess; stdout: () => string; stderr: () => string }> =>
  new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const seen = { stdout: '', stderr: '' };
    for (const name of ['stdout', 'stderr'] as const) {
      child[name]!.on('data', (chunk: Buffer) => {
        seen[name] += chunk.toString();
        if (ready.test(seen.stdout) || ready.test(seen.stderr))
          resolvePromise({ child, stdout: () => seen.stdout, stderr: () => seen.stderr });
      });
    }
    child.once('exit', (code) =>
      reject(new Error(`harness ${args.join(' ')} exited with ${code}: ${seen.stdout}${seen.stderr}`)),
    );
  });

export const tmp = () => mkdtempSync(join(tmpdir(), 'harness-cli-'));

/** An Ed25519 key pair in `dir`, as `harness certify --key` and `harness verify --public-key` take them. */
export const signingKeys = (dir: string) => {
  const key = join(dir, 'key.pem');
  const publicKey = join(dir, 'public.pem');
  execFileSync('openssl', ['genpkey', '-algorithm', 'ed25519', '-out', key]);
  execFileSync('openssl', ['pkey', '-in', key, '-pubout', '-out', publicKey]);
  return { key, publicKey };
};

/** A profile file (in `dir`) whose secrets come from the environment, as a user would keep them. */
export const profileFile = (profile: Profile, dir = tmp()) => {
  const copy = structuredClone(profile);
  const env: Record<string, string> = {};
  for (const [role, client] of Object.entries(copy.clients)) {
    const name = `SECRET_${role.toUpperCase()}`;
    env[name] = client.client_secret;
    client.client_secret = `\${${name}}`;
  }
  const file = join(dir, 'profile.yaml');
  writeFileSync(file, stringify(copy));
  return { file, env };
};

/** The reference server's profile as a file (see profileFile); `changes` override fields. */
export const profileFor = (server: RunningReferenceServer, changes: Partial<Profile> = {}) =>
  profileFile({ ...server.profile(), ...changes });

/** Every secret the server knows and every token it issued: none may appear in an artifact. */
export const secretsOf = (server: RunningReferenceServer): string[] => [
  ...Object.values(server.clients).map((c) => c.client_secret),
  ...server.issuedTokens(),
];

export interface Running {
  readonly child: ChildProcess;
  /** stdout and stderr so far, interleaved. */
  output(): string;
  /** Resolves once the output matches `pattern`. */
  waitFor(pattern: RegExp): Promise<void>;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts `harness` to signal it mid-run: its output watched, its exit awaited. */
export const spawnHarness = (args: string[], env: NodeJS.ProcessEnv = {}): Running => {
  const child = spawn(process.execPath, [BIN, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const watchers = new Set<() => void>();
  for (const stream of [child.stdout!, child.stderr!]) {
    stream.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      for (const watcher of watchers) watcher();
    });
  }
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
    child.once('exit', (code, signal) => done({ code, signal })),
  );
  return {
    child,
    output: () => out,
    exited,
    waitFor: (pattern) =>
      new Promise((resolvePromise, reject) => {
        const check = () => {
          if (!pattern.test(out)) return;
          watchers.delete(check);
          resolvePromise();
        };
        watchers.add(check);
        check();
        void exited.then(() => reject(new Error(`harness exited before ${pattern}: ${out}`)));
      }),
  };
};
