// `npm run bench:accuracy`: every cell of network condition × limiter kind × server, side by side in one run, for
// `harness conformance` (the limit checks) and `harness load --scenario transactions` (bench/load-accuracy.ts),
// plus a contention row (two conformance runs and a busy loop sharing the cores). A conformance cell is right when a
// faithful server draws no FAIL and a wrong transaction limit draws the FAIL that names it. Arguments narrow it:
// `-- far token-bucket low` runs those cells, `-- conformance` or `-- load` one half, `-- adversary` the adversary
// part instead (bench/adversary.ts), `-- sweep` every phase on virtual time (bench/sweep.ts). Writes reports/bench/accuracy-matrix.json.
import { fork, spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { LIMITER_KINDS, type LimiterKind } from '../src/reference/index.ts';
import type { NetworkCondition } from '../src/reference/toxiproxy.ts';
import type { RunReport } from '../src/runner/types.ts';
import { runAgainst } from '../test/support/testbed.ts';
import { runAdversaryPart } from './adversary.ts';
import { type AccuracyCell, cellRow, measureCell, type ServerCase } from './load-accuracy.ts';

const CONDITIONS: NetworkCondition[] = ['lan', 'region', 'far'];
const SERVERS: ServerCase[] = ['faithful', 'low', 'unenforced'];
/** Load's transaction limit: twice 500/s through the proxy beside the server is more than two shared cores carry. */
const LOAD_LIMIT = Number(process.env.HARNESS_BENCH_LIMIT ?? '200');
/** SPEC.md's own transaction limit; per-minute windows scaled to 2 s so a cell takes seconds, not minutes. */
export const TRANSACTION = { count: 500, per: 'second' } as const;
export const MINUTE_MS = 2000;
/** High enough that no probe reaches it; a sliding log keeps a slot per admitted request, so not Infinity. */
const UNENFORCED = 100_000;

export const enforcedCount = (server: ServerCase): number =>
  server === 'faithful' ? TRANSACTION.count : server === 'low' ? TRANSACTION.count * 0.9 : UNENFORCED;

const EXPECTED: Record<ServerCase, string | undefined> = {
  faithful: undefined,
  low: 'LIMIT-ADMITS-TRANSACTION-EVENT',
  unenforced: 'LIMIT-ENFORCED-TRANSACTION-EVENT',
};

interface ConformanceCell {
  /** What LIMITER-ALGORITHM told of the limiter (faithful cells run it). */
  readonly limiter?: string;
  readonly fails: readonly string[];
  readonly inconclusive: readonly string[];
  readonly right: boolean;
  readonly seconds: number;
}

const graded = (report: RunReport, server: ServerCase): ConformanceCell => {
  const ids = (grade: string) => report.checks.filter((c) => c.grade === grade).map((c) => c.id);
  const fails = ids('FAIL');
  const expected = EXPECTED[server];
  const told = report.checks.find((c) => c.id === 'LIMITER-ALGORITHM' && c.grade === 'INFO')?.message;
  return {
    ...(told ? { limiter: told.split(':')[0] } : {}),
    fails,
    inconclusive: ids('INCONCLUSIVE'),
    right: expected === undefined ? fails.length === 0 : fails.length === 1 && fails[0] === expected,
    seconds: Math.round(report.durationMs / 100) / 10,
  };
};

const conformanceCell = async (network: NetworkCondition, limiter: LimiterKind, server: ServerCase) => {
  const transaction = { ...TRANSACTION, count: enforcedCount(server) };
  const [report] = await runAgainst(
    {
      limiter,
      minuteMs: MINUTE_MS,
      tokenLifetimeSeconds: 3600,
      limits: { 'transaction-event': transaction },
    },
    {
      network,
      only: server === 'faithful' ? ['limits'] : ['transaction-event'],
      adjust: (profile) => ({ ...profile, limits: { 'transaction-event': TRANSACTION } }),
    },
  );
  return graded(report!, server);
};

const contentionRow = async () => {
  // A process spinning on a core for as long as the two runs take.
  const busy = spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' });
  try {
    const runs = await Promise.all(
      [1, 2].map(() =>
        runAgainst(
          { minuteMs: MINUTE_MS, tokenLifetimeSeconds: 3600, limits: { 'transaction-event': TRANSACTION } },
          { only: ['limits'], adjust: (p) => ({ ...p, limits: { 'transaction-event': TRANSACTION } }) },
        ),
      ),
    );
    return runs.map(([report]) => graded(report!, 'faithful'));
  } finally {
    busy.kill();
  }
};

interface MatrixRow {
  readonly network: NetworkCondition;
  readonly limiter: LimiterKind;
  readonly server: ServerCase;
  readonly conformance?: ConformanceCell;
  readonly load?: AccuracyCell;
}

/** Arguments narrow the matrix: `-- far token-bucket` runs those cells only. */
const pick = <T extends string>(all: readonly T[], wanted: readonly string[]): T[] => {
  const chosen = all.filter((v) => wanted.includes(v));
  return chosen.length > 0 ? chosen : [...all];
};

export const runMatrix = async (wanted: readonly string[], log: (line: string) => void) => {
  const parts = pick(['conformance', 'load'] as const, wanted);
  const rows: MatrixRow[] = [];
  for (const network of pick(CONDITIONS, wanted)) {
    for (const limiter of pick(LIMITER_KINDS, wanted)) {
      for (const server of pick(SERVERS, wanted)) {
        const conformance = parts.includes('conformance')
          ? await conformanceCell(network, limiter, server)
          : undefined;
        const load = parts.includes('load')
          ? await measureCell(network, limiter, server, LOAD_LIMIT)
          : undefined;
        rows.push({
          network,
          limiter,
          server,
          ...(conformance ? { conformance } : {}),
          ...(load ? { load } : {}),
        });
        log(JSON.stringify(tableRow(rows.at(-1)!)));
      }
    }
  }
  const contention = parts.includes('conformance') ? await contentionRow() : [];
  return { rows, contention };
};

const tableRow = (r: MatrixRow) => {
  const c = r.conformance;
  const load = r.load ? cellRow(r.load) : undefined;
  return {
    network: r.network,
    limiter: r.limiter,
    server: r.server,
    ...(c
      ? {
          conformance:
            c.fails.join(' ') ||
            (c.inconclusive.length > 0 ? `INCONCLUSIVE ×${c.inconclusive.length}` : 'no FAIL'),
          'conformance right': c.right ? 'yes' : 'NO',
        }
      : {}),
    ...(load
      ? {
          'load within/over/knee': `${load.within}/${load.over}/${load.knee}`,
          'over err %': load['over err %'],
          'knee err %': load['knee err %'],
          dropped: load.dropped,
        }
      : {}),
  };
};

if (import.meta.filename === process.argv[1] && process.argv.includes('sweep')) {
  // The sweep (bench/sweep.ts): every limit fault and faithful kind at every start phase, on virtual time.
  const sweep = fork(
    resolve(import.meta.dirname, 'sweep.ts'),
    process.argv.slice(2).filter((a) => a !== 'sweep'),
    {
      execArgv: ['--import', 'tsx'],
    },
  );
  process.exitCode = await new Promise<number>((done) => sweep.on('exit', (code) => done(code ?? 1)));
} else if (import.meta.filename === process.argv[1] && process.argv.includes('adversary')) {
  // The adversary part (bench/adversary.ts): limiters that break one SPEC.md §8 property, from random phases.
  await runAdversaryPart(process.argv.slice(2).filter((a) => a !== 'adversary'));
} else if (import.meta.filename === process.argv[1]) {
  const { rows, contention } = await runMatrix(process.argv.slice(2), (line) => console.log(line));
  const out = resolve(import.meta.dirname, '..', 'reports', 'bench');
  mkdirSync(out, { recursive: true });
  const path = join(out, 'accuracy-matrix.json');
  writeFileSync(
    path,
    `${JSON.stringify({ measuredAt: new Date().toISOString(), loadLimitPerSecond: LOAD_LIMIT, rows, contention }, null, 2)}\n`,
  );
  console.table(rows.map(tableRow));
  const faithful = rows.filter((r) => r.server === 'faithful');
  const falseFails =
    faithful.filter((r) => (r.conformance?.fails.length ?? 0) > 0).length +
    faithful.filter((r) => r.load?.phases.some((p) => p.grade === 'FAIL')).length;
  const missed = rows.filter((r) => r.server !== 'faithful' && r.conformance && !r.conformance.right).length;
  console.log(
    `false FAIL on faithful cells: ${falseFails}; wrong limits conformance did not catch: ${missed}; ` +
      `contention: ${contention.map((c) => (c.right ? 'right' : 'WRONG')).join(', ') || 'not run'}; wrote ${path}`,
  );
}
