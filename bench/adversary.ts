// `npm run bench:accuracy -- adversary`: limiters that each break one SPEC.md §8 property (the reference server's
// limit faults) and the faithful kinds beside them, each run from random phases of the server's windows, on `lan`
// and `far`. A class is caught when the check that names its rule FAILs (or, for a queue, is INCONCLUSIVE naming the
// pattern; a RateLimit fault when its check WARNs); a faithful run is right with no FAIL, WARN or INCONCLUSIVE.
// Arguments narrow it (`-- adversary far limit-early-reset`, `-- adversary ratelimit`); HARNESS_BENCH_PHASES sets the
// runs per cell (default 10). Writes reports/bench/adversary.json.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { FaultName, LimiterKind } from '../src/reference/index.ts';
import type { NetworkCondition } from '../src/reference/toxiproxy.ts';
import type { RunReport } from '../src/runner/types.ts';
import { BUCKETS, type BucketId } from '../src/spec/index.ts';
import { runAgainst } from '../test/support/testbed.ts';

const MINUTE_MS = 2000;
const PHASES = Number(process.env.HARNESS_BENCH_PHASES ?? '10');
const NETWORKS: NetworkCondition[] = ['lan', 'far'];

interface AdversaryClass {
  readonly name: string;
  readonly fault?: FaultName;
  readonly limiter: LimiterKind;
  /** The buckets probed (as --only takes them). */
  readonly only: readonly string[];
  /** The checks whose FAIL (or `grade`) catches it; none for a faithful control. */
  readonly caughtBy: readonly string[];
  /** The profile says other traffic may use the tenant (exclusive_tenant: false): one refusal decides nothing. */
  readonly shared?: boolean;
  /** Caught only when every check of caughtBy is (a property stated for every bucket), not any one of them. */
  readonly every?: boolean;
  /** The grade that catches it where not FAIL: a WARN, for the RateLimit fields SPEC.md is silent on. */
  readonly grade?: 'WARN';
  /** The RateLimit fields the server sends (a RateLimit fault sends the draft's whatever this says). */
  readonly rateLimitFields?: 'draft';
  /** An INCONCLUSIVE of those checks whose message matches this catches it too (a pattern named, not proven). */
  readonly named?: RegExp;
  /** The length of a "minute" on the server, and so the longest window among the buckets probed. */
  readonly windowMs: number;
}

const execute = (
  name: string,
  fault: FaultName,
  limiter: LimiterKind,
  caughtBy: string,
  windowMs = MINUTE_MS,
): AdversaryClass => ({ name, fault, limiter, only: ['rules-execute'], caughtBy: [caughtBy], windowMs });

const RATELIMIT_CAUGHT_BY: Partial<Record<FaultName, string>> = {
  'ratelimit-reset-early': 'RATELIMIT-RESET',
  'ratelimit-remaining-stuck': 'RATELIMIT-REMAINING',
};

/** The rules-schedule probe read by the RateLimit checks, against a server sending the draft's fields. */
const rateLimitClass = (
  name: string,
  limiter: LimiterKind,
  fault: FaultName | undefined,
  windowMs = MINUTE_MS,
): AdversaryClass => ({
  name,
  limiter,
  ...(fault ? { fault, caughtBy: [RATELIMIT_CAUGHT_BY[fault]!], grade: 'WARN' } : { caughtBy: [] }),
  only: ['ratelimit'],
  rateLimitFields: 'draft',
  windowMs,
});

export const CLASSES: readonly AdversaryClass[] = [
  execute('window 0.75 × stated, anchored', 'limit-window-short', 'anchored', 'LIMIT-ENFORCED-RULES-EXECUTE'),
  execute('window 0.75 × stated, aligned', 'limit-window-short', 'aligned', 'LIMIT-ENFORCED-RULES-EXECUTE'),
  execute(
    'early reset behind a faithful Retry-After',
    'limit-early-reset',
    'anchored',
    'LIMIT-ENFORCED-RULES-EXECUTE',
  ),
  {
    name: 'Observability split in four shares',
    fault: 'observability-split',
    limiter: 'anchored',
    only: ['observability'],
    caughtBy: ['LIMIT-ADMITS-OBSERVABILITY', 'LIMIT-OBSERVABILITY-SHARED'],
    windowMs: MINUTE_MS,
  },
  {
    name: 'first window admits half',
    fault: 'limit-first-window-low',
    limiter: 'anchored',
    only: ['batch-upload-url'],
    caughtBy: ['LIMIT-ADMITS-BATCH-UPLOAD-URL'],
    windowMs: MINUTE_MS,
  },
  execute('refused requests counted', 'limit-counts-refused', 'anchored', 'LIMIT-ADMITS-RULES-EXECUTE'),
  {
    name: 'queues over the limit, never 429',
    fault: 'limit-queues',
    limiter: 'anchored',
    only: ['rules-status'],
    caughtBy: ['LIMIT-ENFORCED-RULES-STATUS'],
    named: /queues requests over the limit/,
    windowMs: MINUTE_MS,
  },
  execute(
    // 12 s minutes: in the last sixth of a 2 s one, half the wait is within a 200 ms round trip and the tolerance.
    'Retry-After short late in the window (12 s minutes)',
    'retry-after-short-late',
    'anchored',
    'LIMIT-RETRY-HONOURED-RULES-EXECUTE',
    12_000,
  ),
  ...(['anchored', 'aligned'] as const).map((limiter) =>
    execute(
      `fails open in 5 % of each window, ${limiter}`,
      'limit-fail-open-slice',
      limiter,
      'LIMIT-ENFORCED-RULES-EXECUTE',
    ),
  ),
  ...(['aligned', 'token-bucket'] as const).map((limiter) =>
    execute(
      `counts each admit 2 ms after its check (a racy counter), ${limiter}`,
      'limit-racy-counter',
      limiter,
      'LIMIT-ENFORCED-RULES-EXECUTE',
    ),
  ),
  // Refusals below the limit, the tenant not exclusive: decided by two in a row, which harness's own traffic makes.
  ...(['anchored', 'aligned'] as const).map(
    (limiter): AdversaryClass => ({
      ...execute(
        `window 1.25 × stated, ${limiter}, tenant not exclusive`,
        'limit-window-long',
        limiter,
        'LIMIT-ADMITS-RULES-EXECUTE',
      ),
      shared: true,
    }),
  ),
  {
    ...execute(
      'refused requests counted, tenant not exclusive',
      'limit-counts-refused',
      'anchored',
      'LIMIT-ADMITS-RULES-EXECUTE',
    ),
    shared: true,
  },
  {
    // A token is back moments after any refusal: one admitted request of the other tenant proved nothing.
    name: 'one limit shared by every tenant, token bucket, every bucket',
    fault: 'limit-shared-across-tenants',
    limiter: 'token-bucket',
    only: ['tenant-isolation'],
    caughtBy: (Object.keys(BUCKETS) as BucketId[]).map((b) =>
      b === 'rules-schedule' ? 'LIMIT-TENANT-ISOLATED' : `LIMIT-TENANT-ISOLATED-${b.toUpperCase()}`,
    ),
    every: true,
    windowMs: MINUTE_MS,
  },
  ...(['anchored', 'aligned', 'sliding-log', 'token-bucket'] as const).map(
    (limiter): AdversaryClass => ({
      name: `faithful ${limiter}`,
      limiter,
      only: ['rules-execute', 'observability', 'batch-upload-url', 'transaction-event'],
      caughtBy: [],
      windowMs: MINUTE_MS,
    }),
  ),
  // RateLimit fields (`-- adversary ratelimit`). 12 s minutes: in 2 s ones every reset time is 0 to 2 s, and a
  // quarter of it always 0, so only minutes long enough for whole seconds to matter show a reset time cut short. Not a
  // token bucket's: its next unit is a tenth of a second away, so a quarter of the 1 s it says is no lie to show.
  ...(['aligned', 'sliding-log'] as const).map((limiter) =>
    rateLimitClass(
      `RateLimit reset a quarter of the wait, ${limiter}`,
      limiter,
      'ratelimit-reset-early',
      12_000,
    ),
  ),
  rateLimitClass('RateLimit remaining stuck, token bucket', 'token-bucket', 'ratelimit-remaining-stuck'),
  ...(['anchored', 'aligned', 'sliding-log', 'token-bucket'] as const).map((limiter) =>
    rateLimitClass(`faithful ${limiter}, RateLimit fields`, limiter, undefined),
  ),
  rateLimitClass('faithful aligned, RateLimit fields (12 s minutes)', 'aligned', undefined, 12_000),
];

/** One run of a cell, from a random start phase: was it graded right, and what it proved. */
interface CellRun {
  readonly phaseMs: number;
  readonly right: boolean;
  readonly deviations: Readonly<Record<string, string>>;
  readonly seconds: number;
  /** Per LIMIT-ENFORCED check: the window length it proved, as a fraction of the stated one (0: not verified). */
  readonly lengths: readonly number[];
}

/** What LIMIT-ENFORCED says it proved of the window's length ("at least X ms long (stated: W ms)"), over W. */
const provenLength = (message: string): number => {
  const found = /the window is at least (-?\d+) ms long \(stated: (\d+) ms\)/.exec(message);
  return found ? Math.max(0, Number(found[1]) / Number(found[2])) : 0;
};

const ENFORCED = /^LIMIT-(ENFORCED-|OBSERVABILITY-SHARED$)/;

const cellRunOf = (report: RunReport, adversary: AdversaryClass, phaseMs: number): CellRun => {
  const deviations = Object.fromEntries(
    report.checks.filter((c) => c.grade !== 'PASS' && c.grade !== 'INFO').map((c) => [c.id, c.grade]),
  );
  const right =
    adversary.caughtBy.length === 0
      ? Object.keys(deviations).length === 0
      : adversary.caughtBy[adversary.every ? 'every' : 'some']((id) =>
          report.checks.some(
            (c) =>
              c.id === id &&
              (c.grade === (adversary.grade ?? 'FAIL') ||
                (c.grade === 'INCONCLUSIVE' && adversary.named?.test(c.message) === true)),
          ),
        );
  const lengths = report.checks
    .filter((c) => ENFORCED.test(c.id) && c.grade === 'PASS')
    .map((c) => provenLength(c.message));
  return { phaseMs, right, deviations, seconds: Math.round(report.durationMs / 100) / 10, lengths };
};

const runCell = async (adversary: AdversaryClass, network: NetworkCondition): Promise<CellRun> => {
  const phaseMs = Math.round(Math.random() * adversary.windowMs);
  const [report] = await runAgainst(
    {
      ...(adversary.fault ? { fault: adversary.fault } : {}),
      ...(adversary.rateLimitFields ? { rateLimitFields: adversary.rateLimitFields } : {}),
      limiter: adversary.limiter,
      minuteMs: adversary.windowMs,
      tokenLifetimeSeconds: 3600,
    },
    {
      network,
      only: adversary.only,
      phaseMs,
      ...(adversary.shared ? { adjust: (p) => ({ ...p, exclusive_tenant: false }) } : {}),
    },
  );
  return cellRunOf(report!, adversary, phaseMs);
};

/** Of the PASSing LIMIT-ENFORCED checks: how many proved a length, and the least and median fraction proved. */
const lengthsOf = (runs: readonly CellRun[]): string => {
  const all = runs.flatMap((o) => o.lengths);
  if (all.length === 0) return '';
  const proven = all.filter((x) => x > 0).sort((a, b) => a - b);
  const share = (x: number | undefined) => (x === undefined ? '-' : x.toFixed(2));
  return `${proven.length}/${all.length}, least ${share(proven[0])}, median ${share(proven[Math.floor(proven.length / 2)])}`;
};

export const runAdversaries = async (wanted: readonly string[], log: (line: string) => void) => {
  const networks = NETWORKS.filter((n) => wanted.includes(n));
  const classes = CLASSES.filter(
    (c) => wanted.includes(c.fault ?? c.limiter) || c.only.some((only) => wanted.includes(only)),
  );
  const rows = [];
  for (const network of networks.length > 0 ? networks : NETWORKS) {
    for (const adversary of classes.length > 0 ? classes : CLASSES) {
      const runs: CellRun[] = [];
      for (let i = 0; i < PHASES; i++) runs.push(await runCell(adversary, network));
      const missed = runs.filter((o) => !o.right);
      const row = {
        network,
        class: adversary.name,
        right: `${runs.length - missed.length}/${runs.length}`,
        'wrong runs': missed.map((o) => `${o.phaseMs} ms: ${JSON.stringify(o.deviations)}`).join('; '),
        'mean s': Math.round((runs.reduce((a, o) => a + o.seconds, 0) / runs.length) * 10) / 10,
        'length proven': lengthsOf(runs),
      };
      log(JSON.stringify(row));
      // Under the key adversary.json has always had, so earlier measurements read the same.
      rows.push({ ...row, outcomes: runs });
    }
  }
  return rows;
};

/** Runs the cells `wanted` names (all by default), prints the table and writes reports/bench/adversary.json. */
export const runAdversaryPart = async (wanted: readonly string[]): Promise<void> => {
  const rows = await runAdversaries(wanted, (line) => console.log(line));
  const out = resolve(import.meta.dirname, '..', 'reports', 'bench');
  mkdirSync(out, { recursive: true });
  const path = join(out, 'adversary.json');
  writeFileSync(path, `${JSON.stringify({ measuredAt: new Date().toISOString(), rows }, null, 2)}\n`);
  console.table(rows.map(({ outcomes: _, ...row }) => row));
  console.log(`wrote ${path}`);
};

if (import.meta.filename === process.argv[1]) await runAdversaryPart(process.argv.slice(2));
