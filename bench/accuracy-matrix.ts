// `npm run bench:accuracy`: every cell of network condition × limiter kind × server, side by side in one run, for
// `harness conformance` (the limit checks) and `harness load --scenario transactions`, plus a contention row (two
// conformance runs and a busy loop sharing the cores). A cell is right when a faithful server draws no FAIL and a
// wrong transaction limit draws the FAIL that names it. Writes reports/bench/accuracy-matrix.json.
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { RunReport } from '../src/conformance/types.ts';
import { LIMITER_KINDS, type LimiterKind } from '../src/reference/index.ts';
import { runAgainst } from '../src/testbed/conformance.ts';
import type { NetworkCondition } from '../src/testbed/toxiproxy.ts';

export type ServerKind = 'faithful' | 'limit 10 % low' | 'limit unenforced';

const CONDITIONS: NetworkCondition[] = ['lan', 'region', 'far'];
const SERVERS: ServerKind[] = ['faithful', 'limit 10 % low', 'limit unenforced'];
/** SPEC.md's own transaction limit; per-minute windows scaled to 2 s so a cell takes seconds, not minutes. */
export const TRANSACTION = { count: 500, per: 'second' } as const;
export const MINUTE_MS = 2000;
/** High enough that no probe reaches it; a sliding log keeps a slot per admitted request, so not Infinity. */
const UNENFORCED = 100_000;

export const enforcedCount = (server: ServerKind): number =>
  server === 'faithful'
    ? TRANSACTION.count
    : server === 'limit 10 % low'
      ? TRANSACTION.count * 0.9
      : UNENFORCED;

const EXPECTED: Record<ServerKind, string | undefined> = {
  faithful: undefined,
  'limit 10 % low': 'LIMIT-ADMITS-TRANSACTION-EVENT',
  'limit unenforced': 'LIMIT-ENFORCED-TRANSACTION-EVENT',
};

interface ConformanceCell {
  /** What LIMITER-ALGORITHM told of the limiter (faithful cells run it). */
  readonly limiter?: string;
  readonly fails: readonly string[];
  readonly inconclusive: readonly string[];
  readonly right: boolean;
  readonly seconds: number;
}

const graded = (report: RunReport, server: ServerKind): ConformanceCell => {
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

const conformanceCell = async (network: NetworkCondition, limiter: LimiterKind, server: ServerKind) => {
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
  readonly server: ServerKind;
  readonly conformance: ConformanceCell;
}

/** Arguments narrow the matrix: `-- far token-bucket` runs those cells only. */
const pick = <T extends string>(all: readonly T[], wanted: readonly string[]): T[] => {
  const chosen = all.filter((v) => wanted.includes(v));
  return chosen.length > 0 ? chosen : [...all];
};

export const runMatrix = async (wanted: readonly string[], log: (line: string) => void) => {
  const rows: MatrixRow[] = [];
  for (const network of pick(CONDITIONS, wanted)) {
    for (const limiter of pick(LIMITER_KINDS, wanted)) {
      for (const server of pick(SERVERS, wanted)) {
        const conformance = await conformanceCell(network, limiter, server);
        rows.push({ network, limiter, server, conformance });
        log(
          `${network.padEnd(7)} ${limiter.padEnd(13)} ${server.padEnd(17)} conformance ${conformance.right ? 'right' : 'WRONG'} (${conformance.fails.join(', ') || 'no FAIL'}${conformance.inconclusive.length > 0 ? `; INCONCLUSIVE ${conformance.inconclusive.join(', ')}` : ''}) ${conformance.seconds} s${conformance.limiter ? `; told: ${conformance.limiter}` : ''}`,
        );
      }
    }
  }
  const contention = await contentionRow();
  log(
    `contention (two runs and a busy loop, lan, faithful): ${contention.map((c) => (c.right ? 'right' : 'WRONG')).join(', ')}`,
  );
  return { rows, contention };
};

if (import.meta.filename === process.argv[1]) {
  const { rows, contention } = await runMatrix(process.argv.slice(2), (line) => console.log(line));
  const out = resolve(import.meta.dirname, '..', 'reports', 'bench');
  mkdirSync(out, { recursive: true });
  const path = join(out, 'accuracy-matrix.json');
  writeFileSync(
    path,
    `${JSON.stringify({ measuredAt: new Date().toISOString(), rows, contention }, null, 2)}\n`,
  );
  console.table(
    rows.map((r) => ({
      network: r.network,
      limiter: r.limiter,
      server: r.server,
      conformance:
        r.conformance.fails.join(' ') ||
        (r.conformance.inconclusive.length
          ? `INCONCLUSIVE ×${r.conformance.inconclusive.length}`
          : 'no FAIL'),
      right: r.conformance.right ? 'yes' : 'NO',
    })),
  );
  const falseFails = rows.filter((r) => r.server === 'faithful' && r.conformance.fails.length > 0).length;
  const missed = rows.filter((r) => r.server !== 'faithful' && !r.conformance.right).length;
  console.log(
    `false FAIL on faithful cells: ${falseFails}; wrong limits not caught: ${missed}; wrote ${path}`,
  );
}
