import type { Evidence } from '../client/index.ts';
import type { Target } from '../profile/target.ts';
import type { BucketId, Clause, Convention } from '../spec/index.ts';
import type { CheckContext } from './context.ts';
import type { CheckEvent } from './events.ts';
import type { Finding, Grade, RuleBreachGrade } from './grades.ts';
import type { LimitTimeline } from './limit-timeline.ts';
import type { PlanItem } from './plan-item.ts';

// Read by the report's schema and by --seed, which take the runner's types, not its workings.
export { MAX_SEED } from './seeded-random.ts';

export type { PlanItem };

/**
 * Checks that share a lane run in order, lanes run concurrently (see runConformance). Most lanes are the rate-limit
 * bucket a check draws from, so no check eats into another's budget mid-measurement; `token` holds the token
 * endpoint's checks; `before` runs ahead of every probe, `after` once they are all done, and `alongside` beside all
 * the others from the start.
 */
export type Lane = BucketId | 'token' | 'before' | 'after' | 'alongside';

export interface CheckDefinition {
  /** Stable and explicit, e.g. `AUTH-TOKEN-TYPE`; baselines and `--only` refer to it. */
  readonly id: string;
  readonly title: string;
  readonly clause: Clause;
  /** The SPEC.md text the check enforces, as SPEC.md prints it (src/spec/quotes.ts); or the RFC's, with `convention`. */
  readonly quote: string;
  /** The RFC the check follows where SPEC.md is silent: `quote` is then the RFC's text, and the check is not required. */
  readonly convention?: Convention;
  readonly tags: readonly string[];
  readonly lane: Lane;
  /** SPEC.md states the rule, so a run that skips it cannot certify the target. */
  readonly required: boolean;
  /**
   * The grades the check gives a server that breaks its rule: FAIL where SPEC.md states the rule, WARN where
   * convention does; empty for a check that only records. The runner grades any other as a harness ERROR, and
   * test/conformance/faults.test.ts makes a fault of the reference server draw each one, so no check is untested.
   */
  readonly failsWith: readonly RuleBreachGrade[];
  /** Needs `--slow` (waits out a real token lifetime). */
  readonly slow?: boolean;
  plan(target: Target): readonly PlanItem[];
  /**
   * Why the profile keeps the check from running (no clients.restricted, say); undefined when nothing does. The
   * planner (plan-skips.ts) SKIPs it before the run for this reason, and --dry-run says so.
   */
  readonly unmetBy?: (target: Target) => string | undefined;
  /**
   * Resolves with its one-line pass message (a Finding when it shows more); ends any other way by throwing a
   * GradedEnd (see grades.ts), which carries what it shows too.
   */
  run(ctx: CheckContext): Promise<string | Finding>;
}

export interface CheckResult {
  readonly id: string;
  readonly title: string;
  readonly clause: Clause;
  readonly section: string;
  readonly quote: string;
  readonly convention?: Convention;
  readonly tags: readonly string[];
  readonly grade: Grade;
  readonly message: string;
  readonly startedAt: string;
  readonly durationMs: number;
  readonly evidence: readonly Evidence[];
  /**
   * Shell commands (bash) reproducing the key exchange, every secret a shell variable: a client's id or secret or a
   * credential header the profile writes as one `${VAR}` as `$VAR`, one written inline by its documented name
   * (`$CLIENT_SECRET`, `$RESTRICTED_CLIENT_SECRET`, `$X_API_KEY`, …), a token as `$ACCESS_TOKEN` (repro.ts).
   */
  readonly repro: readonly string[];
  /** A limit FAIL's proof as the HTML report draws it: the requests around the stretch it counted in. */
  readonly timeline?: LimitTimeline;
}

export interface RunReport {
  readonly harness: { readonly name: 'harness'; readonly version: string };
  /** The SPEC.md data the checks were judged against (src/spec/digest.ts): compare refuses two that differ. */
  readonly specDigest: string;
  readonly target: { readonly base_url: string; readonly auth_url: string; readonly tenant: string };
  /** sha256 of the profile with every client secret replaced, so two runs can be told apart without secrets. */
  readonly profileHash: string;
  /** The command line that produced the report (secrets never appear on it: they come from the profile). */
  readonly command: string;
  readonly certifiable: boolean;
  readonly notCertifiable: readonly string[];
  /**
   * IDs of the checks that ended with no verdict on the server: INCONCLUSIVE, or SKIPped for the target's doing (no
   * token, no id it issued) rather than by the user's choice (--only, --skip, --slow, side_effects, the profile).
   */
  readonly unverified: readonly string[];
  readonly startedAt: string;
  readonly finishedAt: string;
  readonly durationMs: number;
  readonly counts: Readonly<Record<Grade, number>>;
  /** Requests planned (deduplicated across checks that share work). */
  readonly plan: readonly PlanItem[];
  /** Requests actually sent, per endpoint (`METHOD /path/{id}` or `POST {auth_url}`). */
  readonly sent: Readonly<Record<string, number>>;
  /** Where the probes' wait polls landed in a window: `--seed` with it repeats them (absent in older reports). */
  readonly seed?: number;
  readonly checks: readonly CheckResult[];
  /**
   * What judges the run beside its grades, as its exit code did: every report reads its verdict from here
   * (src/report/run-verdict.ts). Absent in a report written before it was recorded, whose grades alone judge it.
   */
  readonly gate?: RunGate;
}

/** The command line's part in a run's verdict. */
export interface RunGate {
  /** --strict: a WARN fails the run. */
  readonly strict: boolean;
  /** --require-certifiable: a run that cannot certify the target fails. */
  readonly requireCertifiable: boolean;
  /** --baseline: the grade expected of each check it lists; only a different grade fails those checks. */
  readonly baseline?: Readonly<Record<string, Grade>>;
}

/** Everything a conformance run tells its listeners: the checks' events, then its end (the report is returned). */
export type ConformanceEvent = CheckEvent | { readonly type: 'run-finished' };
