// The runs of a report folder, for `harness trend`: each subfolder holding a conformance report or a load summary
// (`latest` and folders of other things, such as compare's, are passed over), in the order they started. Runs judged
// against other SPEC.md data than the newest are left out, and so is a folder that cannot be read: each with why.
import { lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { type RunDocs, readRun, stampsOf, startOf } from '../compare/run-docs.ts';
import { InputError, isHarnessError } from '../errors.ts';

export interface TrendRuns {
  readonly runs: readonly RunDocs[];
  /** Folders not shown, and why. */
  readonly leftOut: readonly string[];
}

const NOT_A_RUN = /holds no conformance\.json/;

export const readRuns = (dir: string): TrendRuns => {
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch (error) {
    throw new InputError(`${dir}: cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  const leftOut: string[] = [];
  const found: RunDocs[] = [];
  for (const name of names) {
    const path = join(dir, name);
    // `latest` is a link to a run already listed.
    if (!lstatSync(path).isDirectory()) continue;
    try {
      found.push(readRun(path));
    } catch (error) {
      if (!isHarnessError(error, 'HARNESS_INPUT')) throw error;
      if (!NOT_A_RUN.test(error.message)) leftOut.push(error.message);
    }
  }
  found.sort((a, b) => startOf(a) - startOf(b));
  const digestOf = (run: RunDocs) => stampsOf(run)[0]?.specDigest;
  const newest = found.length === 0 ? undefined : digestOf(found.at(-1)!);
  const runs = found.filter((run) => {
    const same = digestOf(run) !== undefined && digestOf(run) === newest;
    if (!same) {
      leftOut.push(
        `${run.source}: ${digestOf(run) === undefined ? 'written by a harness that records no SPEC.md digest' : 'judged against other SPEC.md data than the newest run'}`,
      );
    }
    return same;
  });
  if (runs.length === 0) {
    throw new InputError(
      `${dir}: no run to show (a run is a folder holding conformance.json or load-<label>-summary.json)${leftOut.length > 0 ? `; left out: ${leftOut.join('; ')}` : ''}`,
    );
  }
  return { runs, leftOut };
};
