// Runs the real `harness` binary, as a user would.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { resolve } from 'node:path';

export const BIN = resolve(import.meta.dirname, '../../bin/harness.js');

export const harness = (args: string[], env: NodeJS.ProcessEnv = {}) =>
  spawnSync(process.execPath, [BIN, ...args], {
    encoding: 'utf8',
    env: { ...process.env, ...env },
    timeout: 120_000,
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
