// The runs of a report folder, for `harness trend`: each subfolder holding a conformance report or a load summary
// (`latest` and folders of other things, such as compare's, are passed over), in the order they started. A report
// that is malformed or forged refuses the whole folder (exit 2, naming the file): the page is never drawn over it.
// Runs judged against other SPEC.md data than this harness's are left out, each with why: their verdicts mean
// something else, and no run, however it is dated, decides which data the others are held to.
import { lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { readRun, stampsOf, startOf } from '../compare/run-docs.ts';
import type { RunDocs } from '../compare/run-types.ts';
import { isHarnessError } from '../errors.ts';
import { refusal } from '../read-back.ts';
import { specDigest } from '../spec/digest.ts';

export interface TrendRuns {
  readonly runs: readonly RunDocs[];
  /** Folders not shown, and why. */
  readonly leftOut: readonly string[];
}

const NOT_A_RUN = /holds no conformance\.json/;

/** A replay or an --only run grades a few checks: as a column of the grid it is mostly empty. */
const isPartial = (run: RunDocs): boolean =>
  run.conformance !== undefined && /\bharness replay\b|\s--only[\s=]/.test(`${run.conformance.command} `);

/** What `--include-partial` brings back: the page and the terminal both say how many, and how. */
export const partialLeftOut = (count: number): string =>
  `${count} replay and --only ${count === 1 ? 'run' : 'runs'}, which grade only some checks (harness trend --include-partial shows them)`;

/** The run in `path`, or undefined for a folder that holds no report; a bad report is thrown (exit 2). */
const runIn = (path: string): RunDocs | undefined => {
  try {
    return readRun(path);
  } catch (error) {
    if (isHarnessError(error, 'HARNESS_INPUT') && NOT_A_RUN.test(error.message)) return undefined;
    throw error;
  }
};

export const readRuns = (dir: string, options: { readonly includePartial?: boolean } = {}): TrendRuns => {
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch (error) {
    throw refusal(dir, `cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  // `latest` is a link to a run already listed.
  const found = names
    .map((name) => join(dir, name))
    .filter((path) => lstatSync(path).isDirectory())
    .flatMap((path) => runIn(path) ?? [])
    .sort((a, b) => startOf(a) - startOf(b));
  const leftOut: string[] = [];
  const partial = options.includePartial === true ? [] : found.filter(isPartial);
  if (partial.length > 0) leftOut.push(partialLeftOut(partial.length));
  const runs = found.filter((run) => {
    if (partial.includes(run)) return false;
    const digest = stampsOf(run)[0]?.specDigest;
    if (digest === specDigest()) return true;
    leftOut.push(
      `${run.source}: ${digest === undefined ? 'written by a harness that records no SPEC.md digest' : "judged against other SPEC.md data than this harness's"}`,
    );
    return false;
  });
  if (runs.length === 0) {
    throw refusal(
      dir,
      `no run to show (a run is a folder holding conformance.json or load-<label>-summary.json)${leftOut.length > 0 ? `; left out: ${leftOut.join('; ')}` : ''}`,
    );
  }
  return { runs, leftOut };
};
