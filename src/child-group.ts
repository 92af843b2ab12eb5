// A child process that dies with harness: spawned `detached`, it leads a process group of its own (so a Ctrl-C in
// the terminal reaches harness alone, which decides how its children stop), and that whole group is killed when
// harness stops it, when `stop` aborts, and, as a last resort, when harness exits any other way.
import { type ChildProcess, type SpawnOptions, spawn } from 'node:child_process';

export interface GroupOptions extends SpawnOptions {
  /** Aborting asks the group to stop (SIGTERM), then kills it after `graceMs`. */
  readonly stop?: AbortSignal;
  readonly graceMs?: number;
}

const signalGroup = (child: ChildProcess, signal: NodeJS.Signals): void => {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // The group is already gone.
  }
};

export const spawnGroup = (command: string, args: readonly string[], options: GroupOptions): ChildProcess => {
  const { stop, graceMs = 10_000, ...spawnOptions } = options;
  const child = spawn(command, args, { ...spawnOptions, detached: true });
  let hard: NodeJS.Timeout | undefined;
  const terminate = () => {
    signalGroup(child, 'SIGTERM');
    hard = setTimeout(() => signalGroup(child, 'SIGKILL'), graceMs);
  };
  const lastResort = () => signalGroup(child, 'SIGKILL');
  process.on('exit', lastResort);
  if (stop?.aborted) terminate();
  else stop?.addEventListener('abort', terminate, { once: true });
  child.once('exit', () => {
    clearTimeout(hard);
    process.off('exit', lastResort);
    stop?.removeEventListener('abort', terminate);
  });
  // spawn() fails after returning (a missing binary): no process, nothing to kill.
  child.once('error', () => process.off('exit', lastResort));
  return child;
};
