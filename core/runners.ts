// Who wrote a load summary, and whether a set of runners' summaries is one whole run. Pure TypeScript: k6's
// handleSummary records the identity (summary.ts), the harness CLI checks a set before it merges it (evidence.ts).
// A set is whole when the runners' execution segments tile 0..1 exactly once, all under one run id and one plan,
// and every runner's setup() completed: anything else would merge a share of the evidence as if it were all of it.
import type { RunnerClock } from './clocks.ts';

/** What each runner (one k6 process, or one k6-operator pod) says about itself in its summary's `runner`. */
export interface RunnerIdentity {
  /** HARNESS_RUN_ID: one per run, the same for all its runners ('' when unset). */
  readonly runId: string;
  /** sha256 (hex) of HARNESS_PLAN exactly as this runner received it. */
  readonly planDigest: string;
  /** k6's execution segment, as k6 reduced it (`1/4:1/2`); `0:1` when the runner ran the whole schedule. */
  readonly segment: string;
  /** k6's execution segment sequence (`0,1/4,1/2,3/4,1`); '' when none was given. */
  readonly sequence: string;
  /** HARNESS_START_AT (epoch ms): the common start this runner waited for in setup(). */
  readonly startAt: number;
  /** false when setup() threw or timed out: k6 still writes a summary, of a runner that sent nothing. */
  readonly setupCompleted: boolean;
  /** HARNESS_VERSION and HARNESS_K6_VERSION, as the CLI or the manifests set them ('unknown' when unset). */
  readonly harnessVersion: string;
  readonly k6Version: string;
  /** Which clock this runner counted its slots by, and how it compares with the target's (clocks.ts). */
  readonly clock?: RunnerClock;
}

/** A runner's identity and where it came from (a file, a pod's log), the name every problem with it uses. */
export interface SourcedRunner {
  readonly source: string;
  readonly runner: RunnerIdentity | undefined;
}

export interface RunnerCheck {
  /** Indexes of the runners whose evidence belongs to the run (foreign and identity-less ones left out). */
  readonly kept: readonly number[];
  /** Why the set is not one whole run; empty when it is. */
  readonly problems: readonly string[];
}

interface Fraction {
  readonly n: number;
  readonly d: number;
}

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));

const fraction = (text: string): Fraction | undefined => {
  const match = /^(\d+)(?:\/(\d+))?$/.exec(text.trim());
  if (!match) return undefined;
  const n = Number(match[1]);
  const d = Number(match[2] ?? 1);
  if (d === 0 || n > d) return undefined;
  const g = gcd(n, d) || 1;
  return { n: n / g, d: d / g };
};

const compare = (a: Fraction, b: Fraction) => a.n * b.d - b.n * a.d;
const show = (f: Fraction) => (f.d === 1 ? String(f.n) : `${f.n}/${f.d}`);
const ZERO = { n: 0, d: 1 };
const ONE = { n: 1, d: 1 };

interface Segment {
  readonly from: Fraction;
  readonly to: Fraction;
  readonly source: string;
}

const segmentOf = (text: string, source: string): Segment | undefined => {
  const [from, to, extra] = text.split(':').map(fraction);
  return from && to && extra === undefined && compare(from, to) < 0 ? { from, to, source } : undefined;
};

const showSegment = (s: { from: Fraction; to: Fraction }) => `${show(s.from)}:${show(s.to)}`;

/** Gaps and overlaps in how the segments cover 0..1: the lost runners, the doubled ones. */
const tilingProblems = (segments: readonly Segment[]): string[] => {
  const problems: string[] = [];
  const sorted = [...segments].sort((a, b) => compare(a.from, b.from) || compare(a.to, b.to));
  let covered: Fraction = ZERO;
  let last: Segment | undefined;
  for (const segment of sorted) {
    if (compare(segment.from, covered) > 0) {
      problems.push(`no runner covers segment ${showSegment({ from: covered, to: segment.from })} (missing)`);
    } else if (compare(segment.from, covered) < 0 && last) {
      const same = compare(segment.from, last.from) === 0 && compare(segment.to, last.to) === 0;
      problems.push(
        same
          ? `segment ${showSegment(segment)} covered twice (duplicate: ${last.source} and ${segment.source})`
          : `segments ${showSegment(last)} (${last.source}) and ${showSegment(segment)} (${segment.source}) overlap`,
      );
    }
    if (compare(segment.to, covered) > 0) {
      covered = segment.to;
      last = segment;
    }
  }
  if (compare(covered, ONE) < 0)
    problems.push(`no runner covers segment ${showSegment({ from: covered, to: ONE })} (missing)`);
  return problems;
};

const short = (digest: string) => digest.slice(0, 12);

/** The run the most runners name (run id and plan): the others are foreign to it. */
const majorityRun = (runners: readonly RunnerIdentity[]): string | undefined => {
  const counts = new Map<string, number>();
  for (const r of runners)
    counts.set(`${r.runId} ${r.planDigest}`, (counts.get(`${r.runId} ${r.planDigest}`) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1])[0]?.[0];
};

export const checkRunners = (set: readonly SourcedRunner[]): RunnerCheck => {
  const problems: string[] = [];
  const identified = set.flatMap((s) => (s.runner ? [s.runner] : []));
  const run = majorityRun(identified);
  const kept: number[] = [];
  set.forEach(({ source, runner }, i) => {
    if (runner === undefined) {
      problems.push(`${source} does not say which runner it is (no runner identity)`);
    } else if (`${runner.runId} ${runner.planDigest}` !== run) {
      problems.push(
        `${source} is foreign: run id ${runner.runId || '(none)'} and plan sha256 ${short(runner.planDigest)}… are not the run's`,
      );
    } else kept.push(i);
  });
  const ours = kept.map((i) => ({ source: set[i]!.source, runner: set[i]!.runner! }));
  if (ours.length > 0 && ours[0]!.runner.runId === '')
    problems.push('the runners have no run id (HARNESS_RUN_ID unset): nothing shows they are one run');
  for (const { source, runner } of ours) {
    if (!runner.setupCompleted)
      problems.push(`${source} (segment ${runner.segment}): setup() did not complete`);
  }
  const sequences = new Set(ours.map((o) => o.runner.sequence));
  if (sequences.size > 1)
    problems.push(`the runners split the schedule by different sequences: ${[...sequences].join(' | ')}`);
  const segments: Segment[] = [];
  for (const { source, runner } of ours) {
    const segment = segmentOf(runner.segment, source);
    if (segment) segments.push(segment);
    else problems.push(`${source}: execution segment ${runner.segment} is not k6's from:to`);
  }
  problems.push(...tilingProblems(segments));
  return { kept, problems };
};

/** How late each kept runner started against the earliest common start: both a later start and lateness shift slots. */
export const startOffsetsMs = (runners: readonly RunnerIdentity[], lateMs: readonly number[]): number[] => {
  const earliest = Math.min(...runners.map((r) => r.startAt));
  return runners.map((r, i) => r.startAt - earliest + (lateMs[i] ?? 0));
};
