// Writes a run's reports into its own directory and points `<parent>/latest` at it, so CI artifacts and people find
// the newest run without knowing its timestamp. Conformance and load alike hand their run to reporters, as k6's
// outputs and Schemathesis's event handlers take theirs: each renders one file, writeRun writes them. What a command
// prints to the terminal comes last, given the files written (terminal/summary.ts, load-reports.ts).
import { randomBytes } from 'node:crypto';
import type { Stats } from 'node:fs';
import { lstat, mkdir, rename, rm, rmdir, stat, symlink } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { HarnessError, isHarnessError } from '../errors.ts';
import type { RunReport } from '../runner/types.ts';
import { validatorOf } from '../validator.ts';
import { type WriteNew, writeWhole } from './atomic.ts';
import { coverageSentence } from './coverage.ts';
import { toHtml } from './html.ts';
import { toJUnit } from './junit.ts';
import { toMarkdown } from './markdown.ts';
import { attentionEntries, RUN_INDEX, runIndex } from './run-index.ts';
import { runVerdict, verdictHeadline } from './run-verdict.ts';
import { conformanceSchema } from './schema.ts';

export const REPORT_FORMATS = ['json', 'junit', 'html', 'markdown'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

export const REPORT_FILES: Readonly<Record<ReportFormat, string>> = {
  json: 'conformance.json',
  junit: 'conformance.xml',
  html: 'conformance.html',
  markdown: 'conformance.md',
};

const reportValidator = validatorOf({ strict: true, allErrors: true }, conformanceSchema);

/** Problems that keep `document` (a parsed conformance.json) from matching the schema; empty when it does. */
export const conformanceErrors = (document: unknown): string[] => {
  const validate = reportValidator();
  return validate(document)
    ? []
    : (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? 'invalid'}`);
};

/** Why reports cannot go where asked: the message names the path and the reason, for the caller to put in context. */
export class ReportDirError extends HarnessError {
  override readonly name = 'ReportDirError';
  constructor(message: string) {
    super('HARNESS_REPORT_DIR', message);
  }
}

const codeOf = (error: unknown): string => (error as NodeJS.ErrnoException).code ?? String(error);

/**
 * Makes `root` and its missing parents one level at a time: mkdir's recursive mode never returns under /proc, and
 * a parent that is a file should be named as such rather than surface as a bare ENOTDIR.
 */
const makeDirs = async (root: string): Promise<void> => {
  const missing: string[] = [];
  for (let dir = resolve(root); ; dir = dirname(dir)) {
    try {
      if (!(await stat(dir)).isDirectory()) throw new ReportDirError(`${dir} is not a directory`);
      break;
    } catch (error) {
      if (isHarnessError(error, 'HARNESS_REPORT_DIR')) throw error;
      const code = codeOf(error);
      if (code !== 'ENOENT' && code !== 'ENOTDIR') throw new ReportDirError(`cannot use ${dir}: ${code}`);
      missing.unshift(dir);
      if (dirname(dir) === dir) break;
    }
  }
  for (const dir of missing) {
    try {
      await mkdir(dir);
    } catch (error) {
      if (codeOf(error) !== 'EEXIST') throw new ReportDirError(`cannot create ${dir}: ${codeOf(error)}`);
    }
  }
};

/**
 * Creates and returns `root/2026-11-21T23-45-12Z` for `date` (no colons, which some file systems and tools reject),
 * or `...Z-2`, `...Z-3` when taken. Creating it is what reserves it, so two runs in the same second never share one,
 * and what proves the run can write there: throws ReportDirError when it cannot.
 */
export const timestampDir = async (root: string, date: Date = new Date()): Promise<string> => {
  const stamp = `${date.toISOString().slice(0, 19).replaceAll(':', '-')}Z`;
  await makeDirs(root);
  for (let n = 1; ; n++) {
    const dir = join(root, n === 1 ? stamp : `${stamp}-${n}`);
    try {
      await mkdir(dir);
      return dir;
    } catch (error) {
      if (codeOf(error) !== 'EEXIST') throw new ReportDirError(`cannot create ${dir}: ${codeOf(error)}`);
    }
  }
};

/** Why `latest` must stay as it is; undefined when it is missing, a link, or was an empty folder (now removed). */
const whyLatestStays = async (latest: string): Promise<string | undefined> => {
  let existing: Stats;
  try {
    existing = await lstat(latest);
  } catch (error) {
    return codeOf(error) === 'ENOENT' ? undefined : `cannot be read (${codeOf(error)})`;
  }
  if (existing.isSymbolicLink()) return undefined;
  if (!existing.isDirectory()) return 'is a file, not the link harness keeps';
  try {
    // rmdir removes only an empty folder: whatever a user keeps in one stays.
    await rmdir(latest);
    return undefined;
  } catch (error) {
    const code = codeOf(error);
    return code === 'ENOTEMPTY' || code === 'EEXIST'
      ? 'is a folder, not the link harness keeps'
      : `is a folder harness cannot remove (${code})`;
  }
};

/**
 * A fresh symlink renamed over the old one: readers see the old run or the new one, never a missing link. A
 * `latest` that is no link (an artifact cache restores links as folders) is the user's: an empty folder is
 * replaced, anything else left as it is. Returns why `latest` was not moved, for one line on stderr: the run's
 * reports are written by then, and a convenience link is no reason to fail it.
 */
export const pointLatest = async (dir: string): Promise<string | undefined> => {
  const parent = dirname(resolve(dir));
  const latest = join(parent, 'latest');
  const notMoved = (why: string) => `${latest} ${why}: left as it is; this run's reports are in ${dir}`;
  const stays = await whyLatestStays(latest);
  if (stays !== undefined) return notMoved(stays);
  const temp = join(parent, `.latest-${process.pid}-${randomBytes(4).toString('hex')}`);
  try {
    // Relative, so the reports folder still works after being moved or unpacked from a CI artifact.
    await symlink(basename(resolve(dir)), temp, 'dir');
    await rename(temp, latest);
    return undefined;
  } catch (error) {
    await rm(temp, { force: true });
    return notMoved(`cannot be pointed at this run (${codeOf(error)})`);
  }
};

/** One file of a finished run. */
export interface Reporter<Run> {
  /** The file's name in the run's folder. */
  readonly file: (run: Run) => string;
  /** The file's content; `names` are every file the run's reporters write (a Markdown summary lists them). */
  readonly render: (run: Run, names: readonly string[]) => string;
}

export interface Written {
  readonly dir: string;
  readonly files: string[];
  /** Why `latest` still points elsewhere, for one line on stderr; absent when it points at this run. */
  readonly latestNotMoved?: string;
}

export interface WriteOptions {
  readonly write?: WriteNew;
  /** False for a replay: `latest` stays at the run replayed, which `replay --failed` reads by default. */
  readonly latest?: boolean;
}

/** A file whose content is known without a run, such as the reason no check ran. */
export const fixedReporter = (file: string, content: string): Reporter<unknown> => ({
  file: () => file,
  render: () => content,
});

/**
 * Renders every report before writing any, so a reporter that throws (invalid JSON) leaves no half a report; then
 * writes them whole or not at all (atomic.ts). Throws ReportWriteError when they cannot be written, `latest` left
 * where it was: the caller still has the run, to print.
 */
export const writeRun = async <Run>(
  dir: string,
  run: Run,
  reporters: readonly Reporter<Run>[],
  { write, latest = true }: WriteOptions = {},
): Promise<Written> => {
  const names = reporters.map((r) => r.file(run));
  const contents = reporters.map((r) => r.render(run, names));
  const files = await writeWhole(
    dir,
    names.map((name, i) => [name, contents[i]!] as const),
    write,
  );
  const latestNotMoved = latest ? await pointLatest(dir) : undefined;
  return { dir, files, ...(latestNotMoved === undefined ? {} : { latestNotMoved }) };
};

interface ConformanceRun {
  readonly report: RunReport;
  /** --strict: a WARN fails the run, and so shows as a failure in the JUnit. */
  readonly strict: boolean;
}

const CONFORMANCE_REPORTERS: Readonly<Record<ReportFormat, Reporter<ConformanceRun>>> = {
  json: {
    file: () => REPORT_FILES.json,
    render: ({ report }) => {
      const json = `${JSON.stringify(report, null, 2)}\n`;
      // Validated as it will be read back.
      const errors = conformanceErrors(JSON.parse(json));
      if (errors.length > 0) {
        throw new Error(`conformance.json does not match its schema: ${errors.join('; ')}`);
      }
      return json;
    },
  },
  junit: { file: () => REPORT_FILES.junit, render: ({ report, strict }) => toJUnit(report, { strict }) },
  html: { file: () => REPORT_FILES.html, render: ({ report }) => toHtml(report) },
  markdown: {
    file: () => REPORT_FILES.markdown,
    render: ({ report }, names) => toMarkdown(report, { reportFiles: names }),
  },
};

const conformanceIndex: Reporter<ConformanceRun> = {
  file: () => RUN_INDEX,
  render: ({ report }, names) => {
    const verdict = runVerdict(report);
    return runIndex({
      title: `harness conformance: ${report.target.base_url}`,
      verdict: verdictHeadline(verdict),
      grade: verdict.grade,
      counts: report.counts,
      coverage: coverageSentence(report),
      certifiable: { yes: report.certifiable, why: report.notCertifiable },
      entries: attentionEntries(report.checks, ({ id, grade, title }) => ({
        id,
        grade,
        title,
        href: `${REPORT_FILES.html}#check-${id}`,
      })),
      files: names,
    });
  },
};

export const writeReports = (
  report: RunReport,
  options: { dir: string; formats: readonly ReportFormat[]; strict?: boolean } & WriteOptions,
): Promise<Written> =>
  writeRun(
    options.dir,
    { report, strict: options.strict === true },
    [
      ...[...new Set(options.formats)].map((format) => CONFORMANCE_REPORTERS[format]),
      // A page to open first, where there is a page to open.
      ...(options.formats.includes('html') ? [conformanceIndex] : []),
    ],
    options,
  );
