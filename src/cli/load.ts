// `harness load`: k6 probes of every limit, against a profile's target or the embedded reference server.
import { writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { planProbes } from '../../load/lib/plan.ts';
import { availableProbes } from '../../load/lib/probes.ts';
import { summaryHtml } from '../../load/lib/report-html.ts';
import { byGrade, GRADE_ORDER, reportJson } from '../../load/lib/verdict.ts';
import { runLoad } from '../load/run.ts';
import { loadProfile } from '../profile/load.ts';
import { type FaultName, type RunningReferenceServer, startReferenceServer } from '../reference/index.ts';
import { pointLatest, timestampDir } from '../report/write.ts';
import { specData } from '../spec/export.ts';
import type { BucketId, Limit } from '../spec/index.ts';
import { UsageError } from './errors.ts';
import { findK6 } from './k6.ts';

export interface LoadOptions {
  profile?: string;
  scenario: string[];
  rate?: number;
  duration?: number;
  instances: number;
  reportDir: string;
  list?: boolean;
  strict?: boolean;
  fault?: FaultName;
  limit: Partial<Record<BucketId, Limit>>;
}

/** The embedded server's per-minute windows last 2 s, so `--scenario all` takes seconds, not a quarter hour. */
const EMBEDDED_MINUTE_MS = 2000;

const show = (path: string) => {
  const near = relative(process.cwd(), path);
  return near.startsWith('..') ? path : near;
};

export const load = async (options: LoadOptions): Promise<void> => {
  if (options.profile && (options.fault || Object.keys(options.limit).length > 0)) {
    throw new UsageError('--fault and --limit apply to the embedded server only (no --profile)');
  }
  let server: RunningReferenceServer | undefined;
  try {
    if (!options.profile) {
      server = await startReferenceServer({
        minuteMs: EMBEDDED_MINUTE_MS,
        limits: options.limit,
        ...(options.fault ? { fault: options.fault } : {}),
      });
    }
    const profile = server ? server.profile() : loadProfile(options.profile!);
    const spec = specData();
    if (options.list) {
      for (const probe of availableProbes(spec, profile))
        console.log(`${probe.name.padEnd(22)} ${probe.describes}`);
      return;
    }
    const plan = {
      scenarios: options.scenario,
      ...(options.duration ? { durationMs: options.duration } : {}),
      ...(options.rate ? { rate: options.rate } : {}),
    };
    let totalMs: number;
    try {
      totalMs = planProbes(spec, profile, plan).totalMs;
    } catch (error) {
      throw new UsageError(`--scenario: ${(error as Error).message}`);
    }
    const k6 = findK6();
    const dir = await timestampDir(resolve(options.reportDir));
    const label = options.scenario.join('+');
    console.error(
      `harness load: ${label} against ${profile.base_url}${server ? ' (embedded reference server)' : ''}, ` +
        `${options.instances} k6 instance${options.instances === 1 ? '' : 's'}, about ${Math.ceil(totalMs / 1000)} s`,
    );
    const outcome = await runLoad({
      k6,
      profile,
      plan,
      instances: options.instances,
      dir,
      label,
      onLine: (l) => console.error(l),
    });
    const files = [...outcome.files];
    if (options.instances > 1) {
      const merged = join(dir, `load-${label}-summary`);
      writeFileSync(`${merged}.json`, reportJson(outcome.summary));
      writeFileSync(`${merged}.html`, summaryHtml(outcome.summary));
      files.push(`${merged}.json`, `${merged}.html`);
    } else {
      files.push(join(dir, `load-${label}-summary.html`));
    }
    await pointLatest(dir);
    const graded = byGrade(outcome.summary);
    for (const { result, verdict } of graded) {
      console.log(`${verdict.grade.padEnd(12)} ${result.plan.name.padEnd(34)} ${verdict.message}`);
    }
    console.log(`reports: ${files.map(show).join(', ')}`);
    const counts = GRADE_ORDER.map(
      (grade) => [grade, graded.filter((g) => g.verdict.grade === grade)] as const,
    )
      .filter(([, list]) => list.length > 0)
      .map(([grade, list]) => `${list.length} ${grade}`);
    const failed = graded.filter((g) => g.verdict.grade === 'FAIL').map((g) => g.result.plan.name);
    console.log(
      `summary: ${graded.length} phases: ${counts.join(', ')}` +
        (failed.length > 0 ? `; failed: ${failed.join(', ')}` : ''),
    );
    const k6Failed = outcome.exitCodes.some((code) => code !== 0);
    if (k6Failed) console.log(`k6 exited with ${outcome.exitCodes.join(', ')}: see its output above`);
    // INCONCLUSIVE and WARN are no failure of the server; --strict makes them one for the exit code.
    const doubtful = graded.some((g) => g.verdict.grade === 'INCONCLUSIVE' || g.verdict.grade === 'WARN');
    process.exitCode = failed.length > 0 || k6Failed || (options.strict && doubtful) ? 1 : 0;
  } finally {
    await server?.close();
  }
};
