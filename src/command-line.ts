// How harness names itself in a command it prints for a person to run (a report's reproduction, `serve`'s next
// step, `--help`'s examples): `npx --no-install harness`, which runs in a clone after `npm run setup` and wherever the
// package is installed, as the README says to run it; a bare `harness` is on no PATH unless installed globally.
export const HARNESS = 'npx --no-install harness';

/** One word for the shell: quoted only when it holds anything a shell would read as more than text. */
export const shellWord = (word: string): string =>
  /^[\w./:=@%+,-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;

/** `harness` with these arguments, as a shell line that runs as printed. */
export const harnessCommand = (args: readonly string[]): string =>
  [HARNESS, ...args.map(shellWord)].join(' ');
