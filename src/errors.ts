/**
 * Bad input from the user (a flag, a profile field, a file, an environment variable), named in the message: the
 * CLI prints it as one line and exits 2. Thrown wherever the input is read, the engine included, so nothing below
 * the CLI imports from it.
 */
export class InputError extends Error {
  override readonly name = 'InputError';
}
