// A child process that dies with harness: spawned `detached`, it leads a process group of its own (so a Ctrl-C in
// the terminal reaches harness alone, which decides how its children stop), and that whole group is killed when
// `stop` aborts, and, as a last resort, when harness exits any other way. A program with no SIGINT or SIGTERM
// handler of its own (a benchmark, a test) still dies of the signal, taking the groups with it.
import { type ChildProcess, type SpawnOptions, spawn } from 'node:child_process';

export interface GroupOptions extends SpawnOptions {
  /** Aborting asks the group to stop (SIGTERM), then kills it after `graceMs`. */
  readonly stop?: AbortSignal;
  readonly graceMs?: number;
}

const running = new Set<ChildProcess>();

const signalGroup = (child: ChildProcess, signal: NodeJS.Signals): void => {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // The group is already gone.
  }
};

const killAll = () => {
  for (const child of running) signalGroup(child, 'SIGKILL');
};

const STOP_SIGNALS = ['SIGINT', 'SIGTERM'] as const;

/** Only while no other handler decides what the signal does: kill the groups, then die of it as Node would. */
const relay = (signal: NodeJS.Signals) => {
  if (process.listenerCount(signal) > 1) return;
  killAll();
  unwatch();
  process.kill(process.pid, signal);
};

const watch = () => {
  process.on('exit', killAll);
  for (const signal of STOP_SIGNALS) process.on(signal, relay);
};

const unwatch = () => {
  process.off('exit', killAll);
  for (const signal of STOP_SIGNALS) process.off(signal, relay);
};

export const spawnGroup = (command: string, args: readonly string[], options: GroupOptions): ChildProcess => {
  const { stop, graceMs = 10_000, ...spawnOptions } = options;
  const child = spawn(command, args, { ...spawnOptions, detached: true });
  let hard: NodeJS.Timeout | undefined;
  const terminate = () => {
    signalGroup(child, 'SIGTERM');
    hard = setTimeout(() => signalGroup(child, 'SIGKILL'), graceMs);
  };
  const forget = () => {
    clearTimeout(hard);
    stop?.removeEventListener('abort', terminate);
    running.delete(child);
    if (running.size === 0) unwatch();
  };
  if (running.size === 0) watch();
  running.add(child);
  if (stop?.aborted) terminate();
  else stop?.addEventListener('abort', terminate, { once: true });
  child.once('exit', forget);
  // spawn() fails after returning (a missing binary): no process, nothing to kill.
  child.once('error', forget);
  return child;
};
