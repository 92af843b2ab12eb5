import { inspect } from 'node:util';
import { CommanderError } from 'commander';
import { isHarnessError } from '../errors.ts';
import { complain, terminalLines, tty } from '../printable.ts';
import { exitCodeOfError, exitNow, exitWith, PASSED, USAGE_ERROR } from './exit-codes.ts';
import { buildProgram } from './program.ts';

// Output piped into `head` and the like: the reader left, which is no error of ours.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
  exitNow();
});

try {
  await buildProgram().parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) {
    // --help and --version end through here too, with their own exit code 0.
    exitWith(error.exitCode === 0 ? PASSED : USAGE_ERROR);
  } else {
    exitWith(exitCodeOfError(error));
    // Bad input is one line; anything else that got this far is a bug, shown whole for its report. Either names
    // files, fields and values it read, so its controls are shown, not obeyed.
    if (isHarnessError(error, 'HARNESS_INPUT')) complain(tty`harness: ${error.message}`);
    else
      complain(
        tty`harness: internal error (a fault of harness, not of the target): ${terminalLines(inspect(error))}`,
      );
  }
}
