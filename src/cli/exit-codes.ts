// The exit codes every command shares, in one table: each code's number, its meaning as `--help` prints it, and its
// rank when several apply (the one rule that picks a run's code: README's exit table). Adding a code is one row here.
import { type ErrorCode, isHarnessError } from '../errors.ts';
import { plural } from '../plural.ts';

interface ExitRow {
  readonly code: number;
  /** As `--help` prints it, wrapped at 110 columns. */
  readonly help: string;
}

/** Most severe first: the order is the rule that picks a run's code. Each row's reason is in its comment. */
const EXIT_TABLE = {
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
    help:
      'no verdict: a check or phase was INCONCLUSIVE (the target limited every call, answered nothing usable, the\n' +
      "deadline passed) or SKIPped for the target's doing (no token): nothing failed, nothing was verified there;\n" +
      'retry, but do not pass',
  },
  /** Everything run was verified, and nothing was found against the target. */
  PASSED: {
    code: 0,
    help:
      'every check or phase decided and none FAILed (a WARN passes unless --strict); a SKIP you chose (--only,\n' +
      '--skip, no --slow, side_effects, a client or id source the profile leaves out, --max-requests) is no matter',
  },
} as const satisfies Record<string, ExitRow>;

export const {
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

const PRECEDENCE: readonly number[] = Object.values(EXIT_TABLE).map((row) => row.code);

/**
 * How an error that ends a command exits, by its code: bad input exits 2; any other error that escaped to the top
 * (a code not listed, or no code at all) is a fault of harness, 4. Errors a command turns into a verdict (an
 * unreachable target, a signal) never reach here.
 */
const EXIT_FOR_ERROR: Partial<Record<ErrorCode, number>> = { HARNESS_INPUT: USAGE_ERROR };

export const exitCodeOfError = (error: unknown): number =>
  (isHarnessError(error) ? EXIT_FOR_ERROR[error.code] : undefined) ?? HARNESS_ERROR;

/** The code of a run made of parts (checks, phases, certify's two runs); a code outside the table outranks all. */
export const exitCodeOf = (codes: readonly number[]): number => {
  const rank = (code: number) => PRECEDENCE.indexOf(code);
  return codes.reduce((worst, code) => (rank(code) < rank(worst) ? code : worst), PASSED);
};

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

/** The exit table as `--help` prints it: by code, with the rank that picks one when several apply. */
export const EXIT_CODES_HELP = `
Exit codes (when several apply, the first of ${PRECEDENCE.filter((code) => code !== PASSED).join(', ')} wins):
${[...Object.values(EXIT_TABLE)]
  .sort((a, b) => a.code - b.code)
  .map((row) => `  ${row.code}  ${row.help.replaceAll('\n', '\n     ')}`)
  .join('\n')}
  129, 130, 143  stopped by SIGHUP, SIGINT, SIGTERM: children stopped, the reports written with what was
     unfinished INCONCLUSIVE
`;
