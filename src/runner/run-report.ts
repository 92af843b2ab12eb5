// A run's report from what ran: the checks the user chose not to run listed as such, every check in the order of the
// selection, what was not verified, why the run cannot certify the target (if so), and the counts.

import { createHash } from 'node:crypto';
import { plural } from '../plural.ts';
import { profileRedactor } from '../profile/secrets.ts';
import type { Target } from '../profile/target.ts';
import { specDigest } from '../spec/digest.ts';
import type { Profile } from '../spec/index.ts';
import { GRADES, type Grade } from './grades.ts';
import type { Selected } from './plan.ts';
import type { PlanItem } from './plan-item.ts';
import { replayCommand } from './repro.ts';
import { describe, type Ran } from './run-check.ts';
import type { CheckResult, RunGate, RunReport } from './types.ts';

/**
 * How the run was started, in the command line's words, in one object: the engine only words the report with them
 * (its header, each check's reproduction, why a run left out checks), and no verdict or exit code depends on them.
 */
export interface RunProvenance {
  readonly version: string;
  readonly command: string;
  /** How `harness replay` reaches this target again (--profile and the like), for the probes' reproductions. */
  readonly replayArguments?: readonly string[];
  /**
   * The target ends with the run (the embedded reference server): a curl to its port finds nothing afterwards, so
   * every check's reproduction is `harness replay` alone, which starts that server again.
   */
  readonly replayOnly?: boolean;
  /** What chose the checks, for the reasons a run cannot certify: `--only/--skip` unless said (`harness replay`). */
  readonly chosenBy?: string;
}

/** What the report says of how the run was started, and what judges it. */
export interface ReportOptions {
  readonly provenance: RunProvenance;
  /** What judges the run beside its grades (--strict, --baseline, --require-certifiable); none: its grades alone. */
  readonly gate?: RunGate;
}

/** Where the target is gone once the run ends, a check's reproduction is `harness replay` alone (see replayOnly). */
const replayedOnly = (result: CheckResult, provenance: RunProvenance): CheckResult =>
  provenance.replayOnly && provenance.replayArguments !== undefined && result.repro.length > 0
    ? { ...result, repro: [replayCommand(result.id, provenance.replayArguments)] }
    : result;

/** Of the profile with its secrets hidden: a hash of a short secret (a key header, a value from ${VAR}) could be tried. */
const profileHash = (profile: Profile): string =>
  createHash('sha256')
    .update(JSON.stringify(profileRedactor(profile).within(profile)))
    .digest('hex');

/** What the run was, beside what ran: its selection, target, options, plan, and the requests it sent. */
export interface RunRecord {
  readonly target: Target;
  readonly selection: readonly Selected[];
  readonly options: ReportOptions;
  readonly plan: readonly PlanItem[];
  readonly startedAt: Date;
  readonly finishedAt: Date;
  readonly sent: RunReport['sent'];
  readonly seed: number;
}

export const buildReport = (ran: readonly Ran[], record: RunRecord): RunReport => {
  const { target, selection, options, plan, startedAt, finishedAt } = record;
  const { provenance } = options;
  const all = [...ran];
  // A missing --slow is the user's choice, listed with how to run the check; --only and --skip leave theirs out.
  for (const { check, excluded, deselected } of selection) {
    if (excluded !== undefined && !deselected) {
      const result: CheckResult = {
        ...describe(check),
        grade: 'SKIP',
        message: excluded,
        startedAt: finishedAt.toISOString(),
        durationMs: 0,
        evidence: [],
        repro: [],
      };
      all.push({ result, byChoice: true });
    }
  }
  const order = new Map(selection.map((s, i) => [s.check.id, i]));
  all.sort((a, b) => order.get(a.result.id)! - order.get(b.result.id)!);
  const results = all.map((r) => replayedOnly(r.result, provenance));
  const unverified = all
    .filter(
      ({ result, byChoice }) => result.grade === 'INCONCLUSIVE' || (result.grade === 'SKIP' && !byChoice),
    )
    .map(({ result }) => result.id);
  const required = new Set(selection.filter((s) => s.check.required).map((s) => s.check.id));
  const leftOut = selection.filter((s) => s.deselected && s.check.required).length;
  const notCertifiable = [
    ...target.notCertifiable,
    ...(leftOut === 0
      ? []
      : [
          `${plural(leftOut, 'check')} SPEC.md requires ${leftOut === 1 ? 'was' : 'were'} left out by ${provenance.chosenBy ?? '--only/--skip'}`,
        ]),
    ...results
      // A harness error leaves the check unjudged, required or not.
      .filter(
        (r) =>
          r.grade === 'ERROR' || (required.has(r.id) && (r.grade === 'SKIP' || r.grade === 'INCONCLUSIVE')),
      )
      .map(
        (r) => `${r.id}${required.has(r.id) ? ` (required by ${r.clause})` : ''} is ${r.grade}: ${r.message}`,
      ),
  ];
  const counts = Object.fromEntries(
    GRADES.map((g) => [g, results.filter((r) => r.grade === g).length]),
  ) as Record<Grade, number>;
  return {
    harness: { name: 'harness', version: provenance.version },
    specDigest: specDigest(),
    target: {
      base_url: target.profile.base_url,
      auth_url: target.profile.auth_url,
      tenant: target.profile.tenant,
    },
    profileHash: profileHash(target.profile),
    command: provenance.command,
    certifiable: notCertifiable.length === 0,
    notCertifiable,
    unverified,
    startedAt: startedAt.toISOString(),
    finishedAt: finishedAt.toISOString(),
    durationMs: finishedAt.getTime() - startedAt.getTime(),
    counts,
    plan,
    sent: record.sent,
    seed: record.seed,
    checks: results,
    gate: options.gate ?? { strict: false, requireCertifiable: false },
  };
};
