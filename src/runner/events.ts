// What a conformance run tells its listeners (src/events/stream.ts), in the order the runner emits it; the whole
// union, ending in `run-finished` (the report itself is returned, not told), is ConformanceEvent (types.ts). Every
// text in it is redacted where it is made (Session.emit), so no listener sees a secret.
import type { Grade } from './grades.ts';

/** What the run tells while its checks run: all of it but the end, and all a Session emits. */
export type CheckEvent =
  /** How many checks will run, and about how long they should take. */
  | { readonly type: 'run-started'; readonly checks: number; readonly expectedMs: number }
  | { readonly type: 'check-started'; readonly id: string }
  | {
      readonly type: 'check-finished';
      readonly id: string;
      readonly grade: Grade;
      readonly message: string;
      readonly durationMs: number;
    }
  /** A deliberate wait (a window to reset, a token to expire); `wait-ended` follows it, early when the run ends. */
  | { readonly type: 'wait-started'; readonly id: string; readonly ms: number; readonly why: string }
  | { readonly type: 'wait-ended'; readonly id: string }
  /** A line for the person watching: the target, a deadline that passed. */
  | { readonly type: 'note'; readonly text: string }
  /** No check is running any more: a live line must go before anything else is printed. */
  | { readonly type: 'checks-ended' };
