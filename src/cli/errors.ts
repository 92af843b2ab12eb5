/** Bad input from the user (flag, profile, environment): one line on stderr and exit code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
  readonly exitCode = 2;
}
