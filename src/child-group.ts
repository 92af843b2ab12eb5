// A child process that dies with harness: spawned `detached`, it leads a process group of its own (so a Ctrl-C in
// the terminal reaches harness alone, which decides how its children stop), and that whole group is killed when
// `stop` aborts, and, as a last resort, when harness exits any other way. A program with no SIGINT or SIGTERM
// handler of its own (a benchmark, a test) still dies of the signal, taking the groups with it. Where harness itself
// is killed (SIGKILL: a CI job's timeout, the OOM killer), no handler runs: a watchdog process, reading a pipe from
// harness, sees the pipe close without harness's word that the child ended, kills the group and removes what
// `leaves` names (a folder with a client key).
import { type ChildProcess, type SpawnOptions, spawn } from 'node:child_process';

export interface GroupOptions extends SpawnOptions {
  /** Aborting asks the group to stop (SIGTERM), then kills it after `graceMs`. */
  readonly stop?: AbortSignal;
  readonly graceMs?: number;
  /** Paths the watchdog removes should harness die while the child runs. */
  readonly leaves?: readonly string[];
}

/** Run by `node -e` with the group's id, the grace in ms and the paths; ENDED on its stdin means all is well. */
const WATCHDOG = `
const [group, grace, ...paths] = process.argv.slice(1);
let said = '';
process.stdin.on('data', (chunk) => { said += chunk; });
process.stdin.on('close', () => {
  if (said.includes('ENDED')) return;
  const signal = (name) => { try { process.kill(-Number(group), name); return true; } catch { return false; } };
  const done = () => {
    for (const path of paths) require('node:fs').rmSync(path, { recursive: true, force: true });
    process.exit(0);
  };
  signal('SIGTERM');
  const by = Date.now() + Number(grace);
  setInterval(() => {
    if (!signal(0)) done();
    if (Date.now() >= by) { signal('SIGKILL'); done(); }
  }, 100);
});
`;

const ENDED = 'ENDED';

/** The watchdog of `child`'s group; it holds harness's event loop open no longer than harness wants. */
const watchdogOf = (
  child: ChildProcess,
  graceMs: number,
  leaves: readonly string[],
): ChildProcess | undefined => {
  if (child.pid === undefined) return undefined;
  const watchdog = spawn(process.execPath, ['-e', WATCHDOG, String(child.pid), String(graceMs), ...leaves], {
    detached: true,
    stdio: ['pipe', 'ignore', 'ignore'],
  });
  watchdog.on('error', () => {});
  watchdog.unref();
  (watchdog.stdin as unknown as { unref?: () => void } | null)?.unref?.();
  return watchdog;
};

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

const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

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
  const { stop, graceMs = 10_000, leaves = [], ...spawnOptions } = options;
  const child = spawn(command, args, { ...spawnOptions, detached: true });
  const watchdog = watchdogOf(child, Math.min(graceMs, 3_000), leaves);
  let hard: NodeJS.Timeout | undefined;
  const terminate = () => {
    signalGroup(child, 'SIGTERM');
    hard = setTimeout(() => signalGroup(child, 'SIGKILL'), graceMs);
  };
  const forget = () => {
    watchdog?.stdin?.end(ENDED);
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
