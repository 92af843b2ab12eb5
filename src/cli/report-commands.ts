// The commands that read runs already written (a certify archive, reports, load summaries) and send nothing, declared
// as commands.ts declares the ones that run: each options type is read off its builder.
import { join } from 'node:path';
import { Command, Option } from '@commander-js/extra-typings';
import { DEFAULT_TOLERANCES } from '../compare/compare.ts';
import type { OptionsOf } from './commands.ts';
import { percent } from './parse.ts';

export const verifyCommand = () =>
  new Command('verify')
    .description('Check a certify archive: its signature and the hash of every file')
    .argument('<archive>', 'the .tgz harness certify wrote')
    .requiredOption('--public-key <file>', 'Ed25519 public key (PEM) of the signer');
export type VerifyOptions = OptionsOf<typeof verifyCommand>;

export const compareCommand = () =>
  new Command('compare')
    .description(
      'Compare two runs (conformance reports, load summaries or run folders): every grade that changed, every limit ' +
        'reading or latency percentile that moved beyond its tolerance; exit 1 when a verdict got worse, 5 when a verdict ' +
        'of A is no longer verified in B (SKIPped, INCONCLUSIVE or not run there)',
    )
    .argument(
      '<a>',
      'the earlier run: a run folder (reports/<timestamp>), conformance.json or load-<label>-summary.json',
    )
    .argument('<b>', 'the later run, of the same kind')
    .option('--out <dir>', 'where compare.md, compare.html and compare.json go', join('reports', 'compare'))
    .addOption(
      new Option(
        '--limit-tolerance <percent>',
        "an enforced reading's move worth listing, in % of SPEC.md's limit",
      )
        .argParser(percent)
        .default(DEFAULT_TOLERANCES.limitPercent),
    )
    .addOption(
      new Option(
        '--latency-tolerance <percent>',
        `a latency percentile's move worth listing, in % (and over ${DEFAULT_TOLERANCES.latencyFloorMs} ms)`,
      )
        .argParser(percent)
        .default(DEFAULT_TOLERANCES.latencyPercent),
    );
export type CompareOptions = OptionsOf<typeof compareCommand>;

export const trendCommand = () =>
  new Command('trend')
    .description(
      'One HTML page of every run in a report folder (e.g. the last CI artifacts): verdicts per check over time, and ' +
        'enforced-limit readings and p95 latency per phase over time',
    )
    .argument('<dir>', 'a folder of runs, as --report-dir writes them (reports/<timestamp>/...)')
    .option('--out <file>', 'the page to write (default: <dir>/trend.html)')
    .option(
      '--include-partial',
      'also show replays and --only runs (left out by default: they grade only some checks)',
    );
export type TrendOptions = OptionsOf<typeof trendCommand>;
