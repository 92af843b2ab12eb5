// The exit codes every command shares beside 0 (passed) and 1 (a verdict against the target): README's exit table.

/** Bad input: one line naming the flag, field, file or variable. */
export const USAGE_ERROR = 2;
/** The target cannot be talked to, or gives no token or id to start with: no check or phase ran. */
export const TARGET_UNREACHABLE = 3;
/** A fault of harness itself (or, for load, of k6): never a verdict on the target. */
export const HARNESS_ERROR = 4;
