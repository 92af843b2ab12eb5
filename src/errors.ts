// One base for every error harness throws on purpose, each with a stable `code`, as undici's errors have
// (lib/core/errors.js) and Hurl's runner errors have (one closed enum, a description per variant): callers branch on
// the code, and the CLI maps it to an exit code in one place (cli/exit-codes.ts), so no `instanceof` chain decides
// an exit. An error without a code is a bug in harness.

/** Every code, with what it means; adding one is a line here and, where it ends a command, one in the exit table. */
export const ERROR_CODES = {
  HARNESS_INPUT: 'bad input from the user: a flag, a profile field, a file or an environment variable',
  HARNESS_TARGET: 'the target could not be talked to at all (no HTTP answer)',
  HARNESS_TOKEN: 'the token endpoint did not answer 200 with a usable access_token',
  HARNESS_PREFLIGHT: "the target answered load's pre-flight, but not with what the phases need",
  HARNESS_LOAD_INTERRUPTED: 'a signal came before k6 ran, or before it wrote its summary',
  HARNESS_REPORT_WRITE: 'a report could not be written whole',
  HARNESS_REPORT_DIR: 'the report folder cannot be made or written',
  HARNESS_ARCHIVE: 'a certify archive is corrupt, or holds what a harness archive never does',
  HARNESS_ARCHIVE_MISMATCH: 'a certify archive does not match its manifest',
  HARNESS_BUDGET: '--max-requests leaves no room for what a check must send',
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

/** Made only through a subclass that gives its code: a code names one kind of error, whichever module throws it. */
export abstract class HarnessError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/**
 * The class a code is thrown as, where it carries more than a message (a TokenError's evidence): the module that
 * defines the class adds its line by declaration merging, so `isHarnessError(error, code)` narrows to it and no
 * caller needs `instanceof`, nor an import of the class.
 */
export interface ErrorClasses {
  HARNESS_INPUT: InputError;
}

type Thrown<Code extends ErrorCode> = Code extends keyof ErrorClasses ? ErrorClasses[Code] : HarnessError;

/** Whether `error` is harness's own, with one of `codes` if given: the one way callers tell errors apart. */
export function isHarnessError(error: unknown): error is HarnessError;
export function isHarnessError<Code extends ErrorCode>(
  error: unknown,
  ...codes: [Code, ...Code[]]
): error is Thrown<Code>;
export function isHarnessError(error: unknown, ...codes: ErrorCode[]): boolean {
  return error instanceof HarnessError && (codes.length === 0 || codes.includes(error.code));
}

/**
 * Bad input from the user (a flag, a profile field, a file, an environment variable), named in the message: the
 * CLI prints it as one line and exits 2. Thrown wherever the input is read, the engine included, so nothing below
 * the CLI imports from it.
 */
export class InputError extends HarnessError {
  override readonly name = 'InputError';
  constructor(message: string) {
    super('HARNESS_INPUT', message);
  }
}
