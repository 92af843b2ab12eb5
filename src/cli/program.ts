// The CLI: each command as commands.ts (or report-commands.ts) declares it, with its action from the file of its own.
import { Command } from '@commander-js/extra-typings';
import { harnessVersion } from '../version.ts';
import {
  certifyCommand,
  conformanceCommand,
  loadCommand,
  loadMergeCommand,
  replayCommand,
  serveCommand,
} from './commands.ts';
import { EXIT_CODES_HELP } from './exit-codes.ts';
import { plainDefaults } from './help.ts';
import { compareCommand, trendCommand, verifyCommand } from './report-commands.ts';

/**
 * A command's implementation is imported when it runs: `--help`, `--version` and a refused flag load none, and a
 * command loads only its own modules (each harness start paid for all nine commands' before).
 */
const whenRun =
  <F extends (...args: never[]) => Promise<void>>(load: () => Promise<F>) =>
  async (...args: Parameters<F>): Promise<void> => {
    await (await load())(...args);
  };

export const buildProgram = () => {
  const program = new Command('harness')
    .description('Checks a server against the service interface of SPEC.md and probes its rate limits.')
    .version(harnessVersion(), '-V, --version', 'print the version of harness')
    .exitOverride()
    // Each command's options follow it (`load merge --report-dir` is merge's), so no parent takes a child's.
    .enablePositionalOptions()
    // Every error of harness starts "harness:", commander's own too; each command takes these settings.
    .configureOutput({ outputError: (text, write) => write(text.replace(/^error: /, 'harness: ')) })
    .addHelpText('after', EXIT_CODES_HELP);
  /** A command made apart from the program gets its settings as `program.command()` would give them. */
  const add = <C extends Parameters<typeof program.addCommand>[0]>(command: C): C => {
    command.copyInheritedSettings(program);
    program.addCommand(command);
    return command;
  };

  add(serveCommand().action(whenRun(() => import('./serve.ts').then((m) => m.serve))));
  add(conformanceCommand().action(whenRun(() => import('./conformance.ts').then((m) => m.conformance))));
  const load_ = add(
    loadCommand().action(whenRun(() => import('./load.ts').then((m) => m.load))),
  ).enablePositionalOptions();
  load_.addCommand(
    loadMergeCommand()
      .copyInheritedSettings(load_)
      .action(whenRun(() => import('./load-merge.ts').then((m) => m.loadMerge))),
  );
  add(replayCommand().action(whenRun(() => import('./replay.ts').then((m) => m.replay))));
  add(certifyCommand().action(whenRun(() => import('./certify.ts').then((m) => m.certify))));
  add(verifyCommand().action(whenRun(() => import('./verify.ts').then((m) => m.verify))));
  add(compareCommand().action(whenRun(() => import('./compare.ts').then((m) => m.compare))));
  add(trendCommand().action(whenRun(() => import('./trend.ts').then((m) => m.trend))));

  plainDefaults(program);
  return program;
};
