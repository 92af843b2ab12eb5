// The exit codes every command shares, in one table: each code's number, its meaning as `--help` prints it, and its
// rank when several apply (the one rule that picks a run's code: docs/exit-codes.md). Adding a code is one row here.
import { type ErrorCode, isHarnessError } from '../errors.ts';
import { plural } from '../plural.ts';

interface ExitRow {
  readonly code: number;
  /** As `--help` prints it, wrapped at 110 columns; rows with the same help share one line. */
  readonly help: string;
  /** The run judged all it ran (a verdict, or none it could reach), its reports written: certify's load "completed". */
  readonly completed?: true;
  /** The signal that stops a run with this code: the shell's 128 + its number. */
  readonly signal?: NodeJS.Signals;
}

const STOPPED_HELP =
  'stopped by SIGHUP, SIGINT, SIGTERM: children stopped, the reports written with what was\n' +
  'unfinished INCONCLUSIVE';

/** Most severe first: the order is the rule that picks a run's code. Each row's reason is in its comment. */
const EXIT_TABLE = {
  /**
   * SIGHUP (a closed terminal, a dropped SSH session), SIGINT, SIGTERM: the run ends as its deadline does, and the
   * code says who stopped it, whatever the run had come to. Only the first signal counts, so they never compete.
   */
  STOPPED_BY_SIGHUP: { code: 129, help: STOPPED_HELP, signal: 'SIGHUP' },
  STOPPED_BY_SIGINT: { code: 130, help: STOPPED_HELP, signal: 'SIGINT' },
  STOPPED_BY_SIGTERM: { code: 143, help: STOPPED_HELP, signal: 'SIGTERM' },
  /** Bad input: one line naming the flag, field, file or variable. Nothing ran, so nothing else can apply. */
  USAGE_ERROR: { code: 2, help: 'bad input: one line naming the flag, field, file or variable' },
  /** A fault of harness itself (or, for load, of k6): it leaves every other code in doubt. */
  HARNESS_ERROR: {
    code: 4,
    help: 'a fault of harness itself (or of k6): the reports are written, with no verdict where it struck',
  },
  /** A verdict against the target (a WARN too, with --strict), a baseline difference, no certification: proof that stands. */
  FAILED: {
    code: 1,
    completed: true,
    help:
      'a check or phase FAILed (with --strict, a WARN too); a --baseline difference; --require-certifiable unmet;\n' +
      'an archive certify wrote that cannot certify the target',
  },
  /**
   * The verdicts were decided and printed on stdout, but the reports asked for could not be written (a full disk, a
   * folder made read-only during the run): never a pass, and nothing half written is left. It outranks 3 and 5, which
   * say to retry: no retry helps until the runner can write again.
   */
  REPORTS_NOT_WRITTEN: {
    code: 6,
    help:
      'the verdicts are decided and printed, but the reports could not be written (a full disk, a read-only folder;\n' +
      'stderr says which file and why): no file is left half written, and a FAIL still exits 1',
  },
  /** The target cannot be talked to, or gives no token or id to start with: no check or phase ran. */
  TARGET_UNREACHABLE: {
    code: 3,
    help: 'the target did not answer (or, for load, issued no token) before any check or phase ran',
  },
  /**
   * No verdict: a check or phase ran but could not decide (INCONCLUSIVE), or was kept from running by the target
   * rather than by the user (a SKIP for want of a token, say): a pipeline may retry, and must not pass.
   */
  NO_VERDICT: {
    code: 5,
    completed: true,
    help:
      'no verdict: a check or phase was INCONCLUSIVE (the target limited every call, answered nothing usable, the\n' +
      "deadline passed) or SKIPped for the target's doing (no token): nothing failed, nothing was verified there;\n" +
      'retry, but do not pass',
  },
  /** Everything run was verified, and nothing was found against the target. */
  PASSED: {
    code: 0,
    completed: true,
    help:
      'every check or phase decided and none FAILed (a WARN passes unless --strict); a SKIP you chose (--only,\n' +
      '--skip, no --slow, side_effects, a client or id source the profile leaves out, --max-requests) is no matter',
  },
} as const satisfies Record<string, ExitRow>;

/** A code from the table: the only codes harness exits with. */
export type ExitCode = (typeof EXIT_TABLE)[keyof typeof EXIT_TABLE]['code'];

export const {
  STOPPED_BY_SIGHUP,
  STOPPED_BY_SIGINT,
  STOPPED_BY_SIGTERM,
  PASSED,
  FAILED,
  USAGE_ERROR,
  TARGET_UNREACHABLE,
  HARNESS_ERROR,
  NO_VERDICT,
  REPORTS_NOT_WRITTEN,
} = Object.fromEntries(Object.entries(EXIT_TABLE).map(([name, row]) => [name, row.code])) as {
  readonly [Name in keyof typeof EXIT_TABLE]: (typeof EXIT_TABLE)[Name]['code'];
};

const ROWS: readonly (ExitRow & { readonly code: ExitCode })[] = Object.values(EXIT_TABLE);
const EXIT_ROW_OF = new Map(ROWS.map((row) => [row.code, row]));
const PRECEDENCE = ROWS.map((row) => row.code);

/** The signals that stop a run, and the code each gives. */
export const STOP_SIGNALS = new Map(
  ROWS.flatMap((row) => (row.signal === undefined ? [] : [[row.signal, row.code] as const])),
);

/**
 * How an error that ends a command exits, by its code: bad input exits 2; any other error that escaped to the top
 * (a code not listed, or no code at all) is a fault of harness, 4. Errors a command turns into a verdict (an
 * unreachable target, a signal) never reach here.
 */
const EXIT_FOR_ERROR: Partial<Record<ErrorCode, ExitCode>> = { HARNESS_INPUT: USAGE_ERROR };

export const exitCodeOfError = (error: unknown): ExitCode =>
  (isHarnessError(error) ? EXIT_FOR_ERROR[error.code] : undefined) ?? HARNESS_ERROR;

/**
 * The one function that computes an exit code: that of a run made of parts (checks, phases, certify's two runs, a
 * signal), by the table's rule.
 */
export const exitCodeOf = (codes: readonly ExitCode[]): ExitCode => {
  const rank = (code: ExitCode) => PRECEDENCE.indexOf(code);
  return codes.reduce<ExitCode>((worst, code) => (rank(code) < rank(worst) ? code : worst), PASSED);
};

/** How every command ends: Node exits, once the command's work is done, with the code of its parts. */
export const exitWith = (...codes: readonly ExitCode[]): void => {
  process.exitCode = exitCodeOf(codes);
};

/** Ends the process at once (a reader gone, a second Ctrl-C): with `code`, else with the code set so far. */
export const exitNow = (code?: ExitCode): never => process.exit(code ?? process.exitCode ?? PASSED);

/** Whether a run with this code judged all it ran and wrote its reports: a verdict, or none it could reach. */
export const completed = (code: ExitCode): boolean => EXIT_ROW_OF.get(code)?.completed === true;

/**
 * Why a run exits NO_VERDICT, on one line of stderr: which checks or phases decided nothing, or that none ran, and
 * what to do (`remedy`: by default, to retry once the target can be measured).
 */
export const noVerdictLine = (
  what: 'checks' | 'phases',
  ids: readonly string[],
  remedy = 'retry once the target can be measured',
): string => {
  const one = what === 'checks' ? 'check' : 'phase';
  return ids.length === 0
    ? `harness: no verdict (exit ${NO_VERDICT}): not one ${one} to judge: nothing failed, and nothing was verified either`
    : `harness: no verdict (exit ${NO_VERDICT}): ${plural(ids.length, one, what)} ${what === 'checks' ? "INCONCLUSIVE or SKIPped for the target's doing" : 'INCONCLUSIVE'} ` +
        `(${ids.slice(0, 5).join(', ')}${ids.length > 5 ? `, and ${ids.length - 5} more` : ''}): nothing failed, and ` +
        `nothing was verified there either; ${remedy}`;
};

/** Rows that share their help (the signals) share one line, their codes joined. */
const helpLines = (): string[] => {
  const codesByHelp = new Map<string, number[]>();
  for (const row of [...ROWS].sort((a, b) => a.code - b.code))
    codesByHelp.set(row.help, [...(codesByHelp.get(row.help) ?? []), row.code]);
  return [...codesByHelp].map(
    ([help, codes]) => `  ${codes.join(', ')}  ${help.replaceAll('\n', '\n     ')}`,
  );
};

/**
 * The exit table as `--help` prints it: by code, with the rank that picks one when several apply (a signal's code
 * stands apart: it replaces whatever the run came to).
 */
export const EXIT_CODES_HELP = `
Exit codes (when several apply, the first of ${ROWS.filter(
  (row) => row.code !== PASSED && row.signal === undefined,
)
  .map((row) => row.code)
  .join(', ')} wins):
${helpLines().join('\n')}
`;
