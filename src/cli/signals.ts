// SIGINT, SIGTERM and SIGHUP end a run as its deadline does: nothing more is sent, children stop, the reports are
// written with what is unfinished INCONCLUSIVE "interrupted", temp files go, and the exit code is the shell's
// 128 + signal. Without a handler Node dies at once, leaving k6 loading the target and its temp folder (with a
// client key, under mutual TLS) behind; SIGHUP is what a closed terminal or a dropped SSH session sends. A second
// SIGINT (an impatient Ctrl-C) exits at once.

const EXIT_CODES: Readonly<Record<'SIGINT' | 'SIGTERM' | 'SIGHUP', number>> = {
  SIGHUP: 129,
  SIGINT: 130,
  SIGTERM: 143,
};
type StopSignal = keyof typeof EXIT_CODES;

export interface Interruption {
  /** Aborts on the first SIGINT, SIGTERM or SIGHUP; its reason is `interrupted (SIGINT)`. */
  readonly signal: AbortSignal;
  /** 129, 130 or 143 once a signal came, else the command's own code. */
  exitCode(commandExitCode: number): number;
  dispose(): void;
}

export const whileInterruptible = async (run: (stop: AbortSignal) => Promise<number>): Promise<number> => {
  const interruption = onInterrupt();
  try {
    return interruption.exitCode(await run(interruption.signal));
  } finally {
    interruption.dispose();
  }
};

const onInterrupt = (): Interruption => {
  const controller = new AbortController();
  let received: StopSignal | undefined;
  const handle = (signal: StopSignal) => {
    if (received !== undefined) {
      if (signal === 'SIGINT') process.exit(EXIT_CODES[signal]);
      return;
    }
    received = signal;
    // After a hang-up the terminal is gone: a write to it fails, and must not end the run before its reports are.
    if (signal === 'SIGHUP')
      for (const stream of [process.stdout, process.stderr]) stream.on('error', () => {});
    console.error(
      `harness: ${signal}: stopping; the reports are written with what is unfinished INCONCLUSIVE`,
    );
    controller.abort(`interrupted (${signal})`);
  };
  const handlers = (Object.keys(EXIT_CODES) as StopSignal[]).map((signal) => {
    const handler = () => handle(signal);
    process.on(signal, handler);
    return [signal, handler] as const;
  });
  return {
    signal: controller.signal,
    exitCode: (code) => (received === undefined ? code : EXIT_CODES[received]),
    dispose: () => {
      for (const [signal, handler] of handlers) process.off(signal, handler);
    },
  };
};
