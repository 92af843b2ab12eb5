// One stream of what a run does, fed by its engine (the conformance runner, the load driver). The terminal's progress,
// the report files and GitHub's job summary are its consumers, as vitest's reporters are of its runner and
// Schemathesis's event handlers of its engine: a new output is one more listener, and no engine code changes.

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
   * The run's last event, handed to each listener in turn once the one before is done: the terminal's live line goes
   * before the reports say where they went, and the job summary copies a verdict the report files already hold.
   */
  async finish(event: E): Promise<void> {
    for (const listen of this.#listeners) await listen(event);
    const failed = (await Promise.all(this.#pending.splice(0))).find((settled) => settled !== undefined);
    if (failed) throw failed.error;
  }
}
