// The exit codes every command shares, and the one rule that picks a run's code when several apply: README's exit table.

/** Everything run was verified, and nothing was found against the target. */
export const PASSED = 0;
/** A verdict against the target: a check or phase FAILed (a WARN too, with --strict), or a baseline differs. */
export const FAILED = 1;
/** Bad input: one line naming the flag, field, file or variable. */
export const USAGE_ERROR = 2;
/** The target cannot be talked to, or gives no token or id to start with: no check or phase ran. */
export const TARGET_UNREACHABLE = 3;
/** A fault of harness itself (or, for load, of k6): never a verdict on the target. */
export const HARNESS_ERROR = 4;
/**
 * No verdict: a check or phase ran but could not decide (INCONCLUSIVE), or was kept from running by the target rather
 * than by the user (a SKIP for want of a token, say). Nothing was found against the target, and nothing was verified
 * there either: a pipeline may retry, and must not pass.
 */
export const NO_VERDICT = 5;
/**
 * The verdicts were decided and printed on stdout, but the reports asked for could not be written (a full disk, a
 * folder made read-only during the run): never a pass, and nothing half written is left. Not a fault of harness
 * (4), which would put the verdicts in doubt: they stand, and a FAIL among them outranks this, being proof about the
 * target. It outranks 3 and 5, which say to retry: no retry helps until the runner can write again.
 */
export const REPORTS_NOT_WRITTEN = 6;

/**
 * Most severe first. A harness fault leaves every other code in doubt; a FAIL is proof about the target and stands
 * whatever else went wrong; then "the reports are missing", "could not talk to it", "could not decide"; a pass only
 * when nothing else applies.
 */
const PRECEDENCE = [
  USAGE_ERROR,
  HARNESS_ERROR,
  FAILED,
  REPORTS_NOT_WRITTEN,
  TARGET_UNREACHABLE,
  NO_VERDICT,
  PASSED,
] as const;

/** The code of a run made of parts (checks, phases, certify's two runs); a code outside the table outranks all. */
export const exitCodeOf = (codes: readonly number[]): number => {
  const rank = (code: number) => (PRECEDENCE as readonly number[]).indexOf(code);
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
  const counted = `${ids.length} ${ids.length === 1 ? one : what}`;
  return ids.length === 0
    ? `harness: no verdict (exit ${NO_VERDICT}): not one ${one} to judge: nothing failed, and nothing was verified either`
    : `harness: no verdict (exit ${NO_VERDICT}): ${counted} ${what === 'checks' ? "INCONCLUSIVE or SKIPped for the target's doing" : 'INCONCLUSIVE'} ` +
        `(${ids.slice(0, 5).join(', ')}${ids.length > 5 ? `, and ${ids.length - 5} more` : ''}): nothing failed, and ` +
        `nothing was verified there either; ${remedy}`;
};

/** The exit table as `--help` prints it. */
export const EXIT_CODES_HELP = `
Exit codes (when several apply, the first of 2, 4, 1, 6, 3, 5 wins):
  0  every check or phase decided and none FAILed (a WARN passes unless --strict); a SKIP you chose (--only,
     --skip, no --slow, side_effects, a client or id source the profile leaves out, --max-requests) is no matter
  1  a check or phase FAILed (with --strict, a WARN too); a --baseline difference; --require-certifiable unmet
  2  bad input: one line naming the flag, field, file or variable
  3  the target did not answer (or, for load, issued no token) before any check or phase ran
  4  a fault of harness itself (or of k6): the reports are written, with no verdict where it struck
  5  no verdict: a check or phase was INCONCLUSIVE (the target limited every call, answered nothing usable, the
     deadline passed) or SKIPped for the target's doing (no token): nothing failed, nothing was verified there;
     retry, but do not pass
  6  the verdicts are decided and printed, but the reports could not be written (a full disk, a read-only folder;
     stderr says which file and why): no file is left half written, and a FAIL still exits 1
  129, 130, 143  stopped by SIGHUP, SIGINT, SIGTERM: children stopped, the reports written with what was
     unfinished INCONCLUSIVE
`;
