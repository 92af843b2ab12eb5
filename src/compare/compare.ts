// Two runs side by side: every check or phase whose grade changed (one present in only one run too), and every limit
// reading or latency percentile that moved beyond its tolerance. A verdict that got worse fails the comparison; a
// verdict A reached that B did not (SKIPped, INCONCLUSIVE or not run) is no longer verified, and does not pass
// either: `--skip` of a FAILing check must not read as fixed. A moved reading is shown, since a reading within the
// verdict's own tolerance can move without the server having changed.

import type { Latency } from '../../core/evidence.ts';
import type { Grade } from '../../core/grade.ts';
import { InputError } from '../errors.ts';
import { printable } from '../printable.ts';
import { gradesByPhase, stampsOf } from './run-docs.ts';
import type { LoadReport, RunDocs } from './run-types.ts';

/** The grades that decide something about the server, and how bad each is: a move up is a verdict that got worse. */
const SEVERITY: Partial<Record<Grade, number>> = { PASS: 0, WARN: 1, FAIL: 2, ERROR: 2 };

/** Worse: B holds a verdict against the server A did not. Unverified: A decided, B did not. Else just changed. */
export type Direction = 'worse' | 'unverified' | 'changed';

const directionOf = (a: Grade | undefined, b: Grade | undefined): Direction => {
  const [before, after] = [a && SEVERITY[a], b && SEVERITY[b]];
  if (before !== undefined && after === undefined) return 'unverified';
  if (after !== undefined && after > (before ?? 0)) return 'worse';
  return 'changed';
};

export interface GradeChange {
  /** A check's ID, or a load phase's name. */
  readonly id: string;
  readonly kind: 'check' | 'phase';
  readonly a: Grade | 'absent';
  readonly b: Grade | 'absent';
  readonly direction: Direction;
  /** B's message: why it has the grade it has. */
  readonly why: string;
}

export interface ReadingMove {
  readonly phase: string;
  readonly reading: 'enforced per window' | 'p50 latency' | 'p95 latency' | 'p99 latency';
  readonly a: number;
  readonly b: number;
  /** Signed, in percent of A (of SPEC.md's limit, for the enforced reading). */
  readonly movedPercent: number;
  readonly tolerancePercent: number;
}

export interface Tolerances {
  /** An enforced reading moving more than this share of SPEC.md's limit (percent). */
  readonly limitPercent: number;
  /** A latency percentile moving more than this share of A's (percent), and more than `latencyFloorMs`. */
  readonly latencyPercent: number;
  readonly latencyFloorMs: number;
}

export const DEFAULT_TOLERANCES: Tolerances = { limitPercent: 2, latencyPercent: 20, latencyFloorMs: 5 };

export interface Comparison {
  readonly a: string;
  readonly b: string;
  readonly changes: readonly GradeChange[];
  readonly moves: readonly ReadingMove[];
  /** Checks and phases graded in both runs. */
  readonly compared: { readonly checks: number; readonly phases: number };
  /** A verdict got worse: exit 1. */
  readonly worse: boolean;
  /** A verdict of A is no longer verified in B (and none got worse): exit 5, no verdict. */
  readonly unverified: boolean;
  readonly tolerances: Tolerances;
}

const major = (version: string | undefined) => version?.split('.')[0];

/** Bad input in one line fit for a terminal: the paths and versions named come from the user and the reports. */
const incomparable = (message: string) => new InputError(printable(`compare: ${message}`));

/** Refuses (exit 2) two runs whose verdicts do not mean the same: other SPEC.md data, another major version. */
export const assertComparable = (a: RunDocs, b: RunDocs): void => {
  const kinds = (run: RunDocs) =>
    [run.conformance ? 'conformance' : '', run.load.length > 0 ? 'load' : ''].filter(Boolean).join('+');
  if (!((a.conformance && b.conformance) || (a.load.length > 0 && b.load.length > 0))) {
    throw incomparable(`${a.source} holds ${kinds(a)} and ${b.source} ${kinds(b)}: nothing to compare`);
  }
  const stamps = [
    ...stampsOf(a).map((s) => ({ ...s, run: a })),
    ...stampsOf(b).map((s) => ({ ...s, run: b })),
  ];
  const undated = stamps.find((s) => s.specDigest === undefined);
  if (undated !== undefined) {
    throw incomparable(
      `${undated.run.source} was written by a harness that records no SPEC.md digest: whether both runs were judged against the same SPEC.md data cannot be told`,
    );
  }
  const [first] = stamps;
  const other = stamps.find((s) => s.specDigest !== first!.specDigest);
  if (other !== undefined) {
    throw incomparable(
      `${first!.run.source} and ${other.run.source} were judged against different SPEC.md data (${first!.specDigest!.slice(0, 19)}… and ${other.specDigest!.slice(0, 19)}…): their verdicts do not mean the same`,
    );
  }
  const newer = stamps.find((s) => major(s.version) !== major(first!.version));
  if (newer !== undefined) {
    throw incomparable(
      `${first!.run.source} was written by harness ${first!.version} and ${newer.run.source} by ${newer.version}: another major version grades differently`,
    );
  }
};

const change = (
  id: string,
  kind: GradeChange['kind'],
  a: Grade | undefined,
  b: Grade | undefined,
  why: string,
): GradeChange[] =>
  a === b
    ? []
    : [
        {
          id,
          kind,
          a: a ?? 'absent',
          b: b ?? 'absent',
          direction: directionOf(a, b),
          why,
        },
      ];

const checkChanges = (a: RunDocs, b: RunDocs): { changes: GradeChange[]; compared: number } => {
  if (!a.conformance || !b.conformance) return { changes: [], compared: 0 };
  const before = new Map(a.conformance.checks.map((c) => [c.id, c]));
  const after = new Map(b.conformance.checks.map((c) => [c.id, c]));
  const ids = [...new Set([...before.keys(), ...after.keys()])];
  return {
    compared: ids.filter((id) => before.has(id) && after.has(id)).length,
    changes: ids.flatMap((id) =>
      change(
        id,
        'check',
        before.get(id)?.grade,
        after.get(id)?.grade,
        after.get(id)?.message ?? 'not run in B',
      ),
    ),
  };
};

interface Phase {
  readonly grade?: Grade;
  readonly message: string;
  readonly enforced?: number;
  readonly limit: number;
  readonly latency?: Latency;
}

/** Every phase of a run's load summaries by name, with the grade its report states. */
const phasesOf = (run: RunDocs): Map<string, Phase> =>
  new Map(
    run.load.flatMap(({ report }: { report: LoadReport }) => {
      const grades = gradesByPhase(report);
      return report.phases.map((result) => {
        const graded = grades.get(result.plan.name);
        return [
          result.plan.name,
          {
            ...(graded ? { grade: graded.grade } : {}),
            message: graded?.message ?? 'not graded (one runner of several)',
            ...(graded?.enforcedPerWindow === undefined ? {} : { enforced: graded.enforcedPerWindow }),
            limit: result.plan.limit.count,
            ...(result.latencyMs ? { latency: result.latencyMs } : {}),
          },
        ] as const;
      });
    }),
  );

const LATENCIES = [
  ['p50 latency', 'p50Ms'],
  ['p95 latency', 'p95Ms'],
  ['p99 latency', 'p99Ms'],
] as const;

const movesOf = (name: string, a: Phase, b: Phase, t: Tolerances): ReadingMove[] => {
  const moves: ReadingMove[] = [];
  if (a.enforced !== undefined && b.enforced !== undefined) {
    const moved = ((b.enforced - a.enforced) / a.limit) * 100;
    if (Math.abs(moved) > t.limitPercent) {
      moves.push({
        phase: name,
        reading: 'enforced per window',
        a: a.enforced,
        b: b.enforced,
        movedPercent: moved,
        tolerancePercent: t.limitPercent,
      });
    }
  }
  for (const [reading, key] of LATENCIES) {
    const [before, after] = [a.latency?.[key], b.latency?.[key]];
    if (before === undefined || after === undefined || before === 0) continue;
    const moved = ((after - before) / before) * 100;
    if (Math.abs(moved) > t.latencyPercent && Math.abs(after - before) > t.latencyFloorMs) {
      moves.push({
        phase: name,
        reading,
        a: before,
        b: after,
        movedPercent: moved,
        tolerancePercent: t.latencyPercent,
      });
    }
  }
  return moves;
};

export const compareRuns = (a: RunDocs, b: RunDocs, tolerances = DEFAULT_TOLERANCES): Comparison => {
  assertComparable(a, b);
  const checks = checkChanges(a, b);
  const [before, after] = [phasesOf(a), phasesOf(b)];
  const names = [...new Set([...before.keys(), ...after.keys()])];
  const both = names.filter((n) => before.has(n) && after.has(n));
  const phaseChanges = names.flatMap((n) =>
    change(n, 'phase', before.get(n)?.grade, after.get(n)?.grade, after.get(n)?.message ?? 'not run in B'),
  );
  const order: readonly Direction[] = ['worse', 'unverified', 'changed'];
  const changes = [...checks.changes, ...phaseChanges].sort(
    (x, y) => order.indexOf(x.direction) - order.indexOf(y.direction),
  );
  return {
    a: a.source,
    b: b.source,
    changes,
    moves: both.flatMap((n) => movesOf(n, before.get(n)!, after.get(n)!, tolerances)),
    compared: { checks: checks.compared, phases: both.length },
    worse: changes.some((c) => c.direction === 'worse'),
    unverified: changes.some((c) => c.direction === 'unverified'),
    tolerances,
  };
};
