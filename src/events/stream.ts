// One stream of what a run does while it runs, fed by its engine (the conformance runner, the load driver), for the
// terminal's live progress, as Schemathesis's event handlers hear its engine. What is made of the finished run (the
// report files, GitHub's job summary, the terminal's summary) is not a listener: the engine returns the run and the
// command hands it to each reporter, which returns what it wrote, as vitest's reporters get `onFinished(files)`.

/** Every event names its kind; each command's stream has its own union of them, ending in `run-finished`. */
export interface RunEvent {
  readonly type: string;
}

/** A consumer: one that returns a promise (a file to write) is awaited before the stream finishes. */
export type Listener<E extends RunEvent> = (event: E) => void | Promise<void>;

class Failed {
  constructor(readonly error: unknown) {}
}

export class EventStream<E extends RunEvent> {
  readonly #listeners: readonly Listener<E>[];
  /** Promises of listeners still at work on earlier events; their failures surface at finish(), not as unhandled. */
  readonly #pending: Promise<Failed | undefined>[] = [];

  constructor(listeners: readonly Listener<E>[] = []) {
    this.#listeners = listeners;
  }

  /** Tells every listener, in the order given, without waiting for any. */
  emit(event: E): void {
    for (const listen of this.#listeners) {
      const working = listen(event);
      if (working instanceof Promise) {
        this.#pending.push(
          working.then(
            () => undefined,
            (error: unknown) => new Failed(error),
          ),
        );
      }
    }
  }

  /**
   * The run's last event, handed to each listener in turn once the one before is done, and every listener's work
   * awaited: the terminal's live line is gone before the reporters print where the reports went.
   */
  async finish(event: E): Promise<void> {
    for (const listen of this.#listeners) await listen(event);
    const failed = (await Promise.all(this.#pending.splice(0))).find((settled) => settled !== undefined);
    if (failed) throw failed.error;
  }
}
