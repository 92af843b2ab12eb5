// Every command and option of the CLI is declared here, in one place; actions live beside it, one file each.
import { Command, Option } from 'commander';
import { FAULTS } from '../reference/index.ts';
import { limitOverride, oneOf, port, positiveInt } from './parse.ts';
import { serve } from './serve.ts';

export const buildProgram = (): Command => {
  const program = new Command('harness')
    .description('Checks a server against the service interface of SPEC.md and probes its rate limits.')
    .exitOverride();

  program
    .command('serve')
    .description('Start the reference server (faithful to SPEC.md, or with one injected fault) on loopback')
    .addOption(new Option('--host <address>', 'loopback address to bind').default('127.0.0.1'))
    .addOption(new Option('--port <n>', 'port; 0 picks a free one').argParser(port).default(0))
    .addOption(
      new Option('--fault <name>', 'break exactly one SPEC.md rule (see --list-faults)').argParser(
        oneOf(
          FAULTS.map((f) => f.name),
          'a fault name (see harness serve --list-faults)',
        ),
      ),
    )
    .option('--list-faults', 'print the injectable faults with the clause each one breaks, and exit')
    .addOption(
      new Option('--minute-ms <ms>', 'length of a "minute" for per-minute limits (shortens tests)').argParser(
        positiveInt,
      ),
    )
    .addOption(
      new Option('--token-lifetime <seconds>', 'token lifetime (SPEC.md: 3600)').argParser(positiveInt),
    )
    .addOption(
      new Option('--limit <bucket=count/unit>', 'override one bucket, e.g. transaction-event=430/second')
        .argParser(limitOverride)
        .default({}),
    )
    .option('--profile-out <file>', 'also write the ready-to-use profile (with local secrets) to this file')
    .action(serve);

  return program;
};
