// What `harness compare` and `harness trend` read: a conformance report (conformance.json), a load summary
// (load-<label>-summary.json), or a run's folder holding either, each validated against its schema before use, so a
// file that only looks like a report is refused with its name and the first thing wrong with it, and so is one that
// could not be what harness wrote (forgery.ts). Each file is read through the one bounded reader (read-back.ts).
import { readdirSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { ValidateFunction } from 'ajv';
import { loadSummarySchema } from '../k6-driver/summary-schema.ts';
import { readBackJson, refusal } from '../read-back.ts';
import { conformanceSchema } from '../report/schema.ts';
import type { RunReport } from '../runner/types.ts';
import { schemaFault } from '../schema-fault.ts';
import { validatorOf } from '../validator.ts';
import { conformanceForgery, loadForgery } from './forgery.ts';
import type { LoadReport, PhaseGrade, RunDocs } from './run-types.ts';

const CONFORMANCE_FILE = 'conformance.json';
const LOAD_FILE = /^load-.+-summary\.json$/;

const digest = { type: 'string', pattern: '^sha256:[0-9a-f]{64}$' } as const;
const stamp = {
  harness: {
    type: 'object',
    additionalProperties: false,
    required: ['name', 'version'],
    properties: { name: { const: 'harness' }, version: { type: 'string', minLength: 1 } },
  },
  specDigest: digest,
} as const;
/** A phase's verdict as reportJson writes it (core/verdict.ts's PhaseVerdict and the phase's name): grades are an enum. */
export const phaseGradeSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['phase', 'grade', 'message', 'notes'],
  properties: {
    phase: { type: 'string', minLength: 1 },
    grade: { enum: ['FAIL', 'INCONCLUSIVE', 'WARN', 'PASS'] },
    message: { type: 'string' },
    notes: { type: 'array', items: { type: 'string' } },
    enforcedPerWindow: { type: 'number', minimum: 0 },
    errorPercent: { type: 'number' },
    proof: {
      type: 'object',
      additionalProperties: false,
      required: ['fromMs', 'toMs'],
      properties: { fromMs: { type: 'number' }, toMs: { type: 'number' }, refusalMs: { type: 'number' } },
    },
  },
} as const;
// allErrors off: the first fault is the one line said, and a forged file of a million faults costs no more.
const OPTIONS = { strict: false, allErrors: false };
// A report of a harness that stamped no digest is read all the same: compare says why it cannot compare it.
const validConformance = validatorOf<RunReport>(OPTIONS, {
  ...conformanceSchema,
  required: conformanceSchema.required.filter((field) => field !== 'specDigest'),
});
const validLoad = validatorOf<LoadReport>(OPTIONS, {
  ...loadSummarySchema,
  properties: {
    ...loadSummarySchema.properties,
    ...stamp,
    generatedAt: { type: 'string', minLength: 1 },
    grades: { type: 'array', items: phaseGradeSchema },
  },
});

/** The value as a report once its schema and what no schema can say (forgery.ts) hold; else exit 2 naming the file. */
const reportIn =
  <T>(what: string, validator: () => ValidateFunction<T>, forgery: (report: T) => string | undefined) =>
  (value: unknown, file: string): T => {
    const valid = validator();
    if (!valid(value)) throw refusal(file, `not ${what}: ${schemaFault(valid.errors![0]!, what)}`);
    const forged = forgery(value);
    if (forged !== undefined) throw refusal(file, `not ${what} harness wrote: ${forged}`);
    return value;
  };

/** A conformance report read back (`file` names it in a refusal), held to what compare and trend hold one to. */
export const conformanceReportIn = reportIn(
  'a harness conformance report',
  validConformance,
  conformanceForgery,
);
const loadReportIn = reportIn('a harness load summary', validLoad, loadForgery);
const readConformance = (file: string) => conformanceReportIn(readBackJson(file), file);
const readLoad = (file: string) => loadReportIn(readBackJson(file), file);

/** The reports of one run's folder: none is an error, as is a folder of runs (that is `harness trend`'s). */
const readFolder = (dir: string): RunDocs => {
  const names = readdirSync(dir).sort();
  const conformance = names.includes(CONFORMANCE_FILE)
    ? readConformance(join(dir, CONFORMANCE_FILE))
    : undefined;
  const load = names
    .filter((n) => LOAD_FILE.test(n))
    .map((n) => ({ file: n, report: readLoad(join(dir, n)) }));
  const run = { source: dir, ...(conformance ? { conformance } : {}), load };
  // One run is judged against one SPEC.md: reports of several in one folder were put together by hand, or forged.
  if (new Set(stampsOf(run).map((stamp) => stamp.specDigest)).size > 1) {
    throw refusal(dir, 'its reports were judged against different SPEC.md data: they are not one run');
  }
  return run;
};

/** `path`: a run's folder, a conformance.json or a load summary. */
export const readRun = (path: string): RunDocs => {
  let folder: boolean;
  try {
    folder = statSync(path).isDirectory();
  } catch (error) {
    throw refusal(path, `cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  if (folder) {
    const run = readFolder(path);
    if (run.conformance === undefined && run.load.length === 0) {
      throw refusal(
        path,
        `holds no ${CONFORMANCE_FILE} and no load-<label>-summary.json (a folder of runs is for harness trend)`,
      );
    }
    return run;
  }
  const name = basename(path);
  if (LOAD_FILE.test(name)) return { source: path, load: [{ file: name, report: readLoad(path) }] };
  return { source: path, conformance: readConformance(path), load: [] };
};

/** A load report's grades by phase (reportJson writes one a phase, which forgery.ts holds a report read back to). */
export const gradesByPhase = (report: LoadReport): ReadonlyMap<string, PhaseGrade> =>
  new Map((report.grades ?? []).map((grade) => [grade.phase, grade]));

/** When the run started, for ordering runs: the conformance run's start, else the load summary's. */
export const startOf = (run: RunDocs): number =>
  Date.parse(run.conformance?.startedAt ?? run.load[0]?.report.generatedAt ?? '') || 0;

/** The stamps a run carries: every report's harness version and SPEC.md digest (absent: an older harness). */
export const stampsOf = (run: RunDocs) =>
  [
    ...(run.conformance
      ? [{ version: run.conformance.harness.version, specDigest: run.conformance.specDigest }]
      : []),
    ...run.load.map(({ report }) => ({ version: report.harness?.version, specDigest: report.specDigest })),
  ] as const;
