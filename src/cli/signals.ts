// SIGINT, SIGTERM and SIGHUP end a run as its deadline does: nothing more is sent, children stop, the reports are
// written with what is unfinished INCONCLUSIVE "interrupted", temp files go, and the exit code is the shell's
// 128 + signal, its row of the exit table. Without a handler Node dies at once, leaving k6 loading the target and its
// temp folder (with a client key, under mutual TLS) behind; SIGHUP is what a closed terminal or a dropped SSH session
// sends. A second SIGINT (an impatient Ctrl-C) exits at once.
import { type ExitCode, exitCodeOf, exitNow, PASSED, STOP_SIGNALS } from './exit-codes.ts';

export interface Interruption {
  /** Aborts on the first SIGINT, SIGTERM or SIGHUP; its reason is `interrupted (SIGINT)`. */
  readonly signal: AbortSignal;
  /** The command's own code joined with the signal's, by the exit table's rule: the signal's once one came. */
  exitCode(commandExitCode: ExitCode): ExitCode;
  dispose(): void;
}

export const whileInterruptible = async (
  run: (stop: AbortSignal) => Promise<ExitCode>,
): Promise<ExitCode> => {
  const interruption = onInterrupt();
  try {
    return interruption.exitCode(await run(interruption.signal));
  } finally {
    interruption.dispose();
  }
};

const onInterrupt = (): Interruption => {
  const controller = new AbortController();
  let received: ExitCode | undefined;
  const handle = (signal: NodeJS.Signals, code: ExitCode) => {
    if (received !== undefined) {
      if (signal === 'SIGINT') exitNow(code);
      return;
    }
    received = code;
    // After a hang-up the terminal is gone: a write to it fails, and must not end the run before its reports are.
    if (signal === 'SIGHUP')
      for (const stream of [process.stdout, process.stderr]) stream.on('error', () => {});
    console.error(
      `harness: ${signal}: stopping; the reports are written with what is unfinished INCONCLUSIVE`,
    );
    controller.abort(`interrupted (${signal})`);
  };
  const handlers = [...STOP_SIGNALS].map(([signal, code]) => {
    const handler = () => handle(signal, code);
    process.on(signal, handler);
    return [signal, handler] as const;
  });
  return {
    signal: controller.signal,
    exitCode: (code) => exitCodeOf([code, received ?? PASSED]),
    dispose: () => {
      for (const [signal, handler] of handlers) process.off(signal, handler);
    },
  };
};
