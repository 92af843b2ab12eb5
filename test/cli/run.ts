// Runs the real `harness` binary, as a user would.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { resolve } from 'node:path';

export const BIN = resolve(import.meta.dirname, '../../bin/harness.js');

export interface Finished {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Asynchronous on purpose: a synchronous spawn would freeze an in-process server the command talks to. */
export const harness = (args: string[], env: NodeJS.ProcessEnv = {}): Promise<Finished> =>
  new Promise((resolve) => {
    const options = { env: { ...process.env, ...env }, timeout: 120_000 };
    execFile(process.execPath, [BIN, ...args], options, (error, stdout, stderr) => {
      const status = error ? (typeof error.code === 'number' ? error.code : null) : 0;
      resolve({ status, stdout, stderr });
    });
  });

/** Starts a long-running command and resolves once its stdout matches `ready`. */
export const startHarness = (
  args: string[],
  ready: RegExp,
): Promise<{ child: ChildProcess; stdout: () => string }> =>
  new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (ready.test(out)) resolvePromise({ child, stdout: () => out });
    });
    child.once('exit', (code) => reject(new Error(`harness ${args.join(' ')} exited with ${code}: ${out}`)));
  });
