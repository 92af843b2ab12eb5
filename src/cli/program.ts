// The CLI: each command as commands.ts (or report-commands.ts) declares it, with its action from the file of its own.
import { Command } from '@commander-js/extra-typings';
import { harnessVersion } from '../version.ts';
import { certify } from './certify.ts';
import {
  certifyCommand,
  conformanceCommand,
  loadCommand,
  loadMergeCommand,
  replayCommand,
  serveCommand,
} from './commands.ts';
import { compare } from './compare.ts';
import { conformance } from './conformance.ts';
import { EXIT_CODES_HELP } from './exit-codes.ts';
import { plainDefaults } from './help.ts';
import { load } from './load.ts';
import { loadMerge } from './load-merge.ts';
import { replay } from './replay.ts';
import { compareCommand, trendCommand, verifyCommand } from './report-commands.ts';
import { serve } from './serve.ts';
import { trend } from './trend.ts';
import { verify } from './verify.ts';

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

  add(serveCommand().action(serve));
  add(conformanceCommand().action(conformance));
  const load_ = add(loadCommand().action(load)).enablePositionalOptions();
  load_.addCommand(loadMergeCommand().copyInheritedSettings(load_).action(loadMerge));
  add(replayCommand().action(replay));
  add(certifyCommand().action(certify));
  add(verifyCommand().action(verify));
  add(compareCommand().action(compare));
  add(trendCommand().action(trend));

  plainDefaults(program);
  return program;
};
