/** Bad input from the user (flag, profile, environment): one line on stderr and exit code 2. The CLI's name for it. */
export { InputError as UsageError } from '../errors.ts';
