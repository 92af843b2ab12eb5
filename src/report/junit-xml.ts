// The one JUnit writer behind conformance.xml and load's load-<scenario>.xml: the shape Jenkins' xUnit schema
// (junit-10.xsd, vendored under test/fixtures/junit/) accepts, with Ant's `timestamp` and `hostname` on each
// testsuite. How a grade reads in JUnit is decided in gradeCount (run-verdict.ts) alone, by the rule the exit code follows.
import { hostname } from 'node:os';
import type { Grade } from '../runner/grades.ts';
import { escapeAttr, escapeText } from './escape.ts';
import { type GradeCount, gradeCount } from './run-verdict.ts';

export interface JUnitCase {
  readonly classname: string;
  readonly name: string;
  readonly grade: Grade;
  /** One line: the `message` attribute. */
  readonly message: string;
  /** What a reader of a CI failure needs: the failure or error text, or system-out of a WARN or INFO that passes. */
  readonly details: string;
  /** A SKIP the user chose (see skipByChoice in src/runner/grades.ts), not one the target forced. */
  readonly skipByChoice: boolean;
  /** --baseline expects this grade: the run passes the case, so the viewer does too, saying so in system-out. */
  readonly accepted?: boolean;
  /** --baseline expects another grade (a PASS where it expects the FAIL it accepts too): the run fails on it. */
  readonly baselineExpects?: Grade;
  /** Epoch milliseconds. */
  readonly startedAt: number;
  readonly durationMs: number;
}

export interface JUnitSuite {
  readonly name: string;
  readonly cases: readonly JUnitCase[];
}

export interface JUnitRun {
  readonly name: string;
  readonly suites: readonly JUnitSuite[];
  /** The run's wall-clock time: cases of different suites overlap, so it is not their sum. */
  readonly durationMs: number;
  /** Facts about the whole run, written under each testsuite (the only place the schema allows them). */
  readonly properties: Readonly<Record<string, string>>;
  /** --strict: a WARN fails the run, so it is a failure here too. */
  readonly strict: boolean;
  readonly hostname?: string;
}

const seconds = (ms: number): string => (Math.max(0, ms) / 1000).toFixed(3);

const attrs = (values: Record<string, string | number>): string =>
  Object.entries(values)
    .map(([name, value]) => ` ${name}="${escapeAttr(String(value))}"`)
    .join('');

/** Ant's form: ISO 8601 without fraction or zone (UTC here). */
const antTimestamp = (epochMs: number): string => new Date(epochMs).toISOString().slice(0, 19);

/** The time at least one case ran: cases of a suite may overlap (lanes, parallel probes) or leave gaps. */
export const busyMs = (cases: readonly Pick<JUnitCase, 'startedAt' | 'durationMs'>[]): number => {
  const spans = cases
    .map((c) => [c.startedAt, c.startedAt + Math.max(0, c.durationMs)] as const)
    .sort((a, b) => a[0] - b[0]);
  let total = 0;
  let reached = Number.NEGATIVE_INFINITY;
  for (const [start, end] of spans) {
    total += Math.max(0, end - Math.max(start, reached));
    reached = Math.max(reached, end);
  }
  return total;
};

const caseCount = (c: JUnitCase, strict: boolean): GradeCount =>
  c.baselineExpects !== undefined
    ? 'failure'
    : c.accepted === true
      ? 'passed'
      : gradeCount(c.grade, c.skipByChoice, strict);

const baselineSays = (c: JUnitCase): string =>
  c.baselineExpects === undefined
    ? c.message
    : `--baseline expects ${c.baselineExpects}, got ${c.grade}: ${c.message}`;

const testcase = (c: JUnitCase, strict: boolean): string => {
  const open = `    <testcase${attrs({ classname: c.classname, name: c.name, time: seconds(c.durationMs) })}`;
  const counted = caseCount(c, strict);
  const body =
    counted === 'failure' || counted === 'error'
      ? `<${counted}${attrs({ message: baselineSays(c), type: c.grade })}>${escapeText(c.details)}</${counted}>`
      : counted === 'skipped'
        ? `<skipped${attrs({ message: c.message })}/>`
        : c.grade === 'PASS'
          ? undefined
          : `<system-out>${escapeText(`${c.grade}${c.accepted === true ? ' accepted by --baseline' : ''}: ${c.details}`)}</system-out>`;
  return body === undefined ? `${open}/>` : `${open}>\n      ${body}\n    </testcase>`;
};

const tally = (cases: readonly JUnitCase[], strict: boolean) => {
  const count = (counted: GradeCount) => cases.filter((c) => caseCount(c, strict) === counted).length;
  return {
    tests: cases.length,
    failures: count('failure'),
    errors: count('error'),
    skipped: count('skipped'),
  };
};

const testsuite = (suite: JUnitSuite, run: JUnitRun, host: string): string => {
  const properties = Object.entries(run.properties).map(
    ([name, value]) => `      <property${attrs({ name, value })}/>`,
  );
  return [
    `  <testsuite${attrs({
      name: suite.name,
      ...tally(suite.cases, run.strict),
      time: seconds(busyMs(suite.cases)),
      timestamp: antTimestamp(Math.min(...suite.cases.map((c) => c.startedAt))),
      hostname: host,
    })}>`,
    ...(properties.length > 0 ? ['    <properties>', ...properties, '    </properties>'] : []),
    ...suite.cases.map((c) => testcase(c, run.strict)),
    '  </testsuite>',
  ].join('\n');
};

export const junitXml = (run: JUnitRun): string => {
  const host = run.hostname || hostname() || 'localhost';
  // A suite with no case has no time to stamp, and nothing to show.
  const suites = run.suites.filter((s) => s.cases.length > 0);
  // junit-10.xsd has no `skipped` on testsuites; viewers add up the testsuites anyway.
  const { skipped: _, ...totals } = tally(
    suites.flatMap((s) => s.cases),
    run.strict,
  );
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites${attrs({ name: run.name, ...totals, time: seconds(run.durationMs) })}>`,
    ...suites.map((suite) => testsuite(suite, run, host)),
    '</testsuites>',
    '',
  ].join('\n');
};
