// The hostile modes of issue 35: files harness reads back that were forged, oversized or not files at all; report
// text that would run script in a reviewer's browser or forge a PR comment; control characters a target puts in its
// headers; answers that would exhaust the load runner; a target slow enough to outlast a deadline.
import { execFileSync, spawn } from 'node:child_process';
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { judge, reportJson } from '../../core/judged.ts';
import { CHROMIUM, chromiumFlags } from '../../scripts/screenshots.ts';
import { startReferenceServer } from '../../src/reference/index.ts';
import { specDigest } from '../../src/spec/digest.ts';
import { profileFile } from '../../test/cli/run.ts';
import { NETWORKS, simulate } from '../../test/load/simulate.ts';
import { routedThrough, startForwarding, type Tamper } from '../../test/support/forward.ts';
import { listenOnLoopback } from '../../test/support/listen.ts';
import { startLoadTarget } from '../../test/support/load-target.ts';
import type { Mode } from './measure.ts';

const BIN = process.env.HARNESS_BIN ?? resolve(import.meta.dirname, '../../bin/harness.js');
const REFERENCE = { minuteMs: 2000, tokenLifetimeSeconds: 5 };
const TOKEN_PATH = '/oauth2/token';
/** What a refused input may cost: reading the cap once, not the file. */
const READ_BACK_RSS_MB = 400;

/** One genuine conformance report of the embedded server, made once per bench and copied into each mode's folder. */
let genuine: string | undefined;
const genuineRun = (): string => {
  if (genuine) return genuine;
  const dir = mkdtempSync(join(tmpdir(), 'harness-bench-genuine-'));
  execFileSync(process.execPath, [BIN, 'conformance', '--report-dir', dir], { stdio: 'ignore' });
  const run = readdirSync(dir).find((name) => /^\d{4}-/.test(name))!;
  genuine = join(dir, run, 'conformance.json');
  return genuine;
};
const genuineReport = () => JSON.parse(readFileSync(genuineRun(), 'utf8'));

/** A folder `name` in `work` holding `report` as its conformance.json. */
const runFolder = (work: string, name: string, report: unknown): string => {
  mkdirSync(join(work, name), { recursive: true });
  writeFileSync(join(work, name, 'conformance.json'), JSON.stringify(report));
  return name;
};

/** `compare GENUINE FORGED`: the forgery is refused (exit 2) with one line, whatever it claims. */
const compareForged = (forge: (report: Record<string, unknown>) => unknown): Mode => ({
  exits: [2],
  setup: async (work) => {
    const a = runFolder(work, 'a', genuineReport());
    const b = runFolder(work, 'b', forge(genuineReport()));
    return { args: ['compare', a, b, '--out', 'out'], maxRssMb: READ_BACK_RSS_MB, hangsAfterSeconds: 60 };
  },
});

type Check = { id: string; grade: string };
const checksOf = (report: Record<string, unknown>) => report.checks as Check[];

/** `compare GENUINE PATH`, PATH made by `make` in the mode's folder: something that is no report. */
const compareWith = (make: (work: string) => string): Mode => ({
  exits: [2],
  setup: async (work) => ({
    args: ['compare', runFolder(work, 'a', genuineReport()), make(work), '--out', 'out'],
    maxRssMb: READ_BACK_RSS_MB,
    hangsAfterSeconds: 30,
  }),
});

/** A load summary of a faithful run, stamped as `harness load` writes it, its grades changed by `forge`. */
const loadSummary = (forge: (grades: Record<string, unknown>[]) => unknown[]): string => {
  const summary = simulate(
    { kind: 'aligned', network: NETWORKS.lan, seed: 1 },
    { scenarios: ['transactions'] },
  );
  const written = JSON.parse(
    reportJson(judge(summary), { harness: { name: 'harness', version: '0.1.0' }, specDigest: specDigest() }),
  );
  return JSON.stringify({ ...written, generatedAt: new Date().toISOString(), grades: forge(written.grades) });
};

/** A listener for requests a page should never make: any hit means report text ran as markup in the browser. */
const startBeacon = async () => {
  let hits = 0;
  const server = createServer((req, res) => {
    hits += 1;
    req.resume();
    res.writeHead(204).end();
  });
  const { origin } = await listenOnLoopback(server);
  return { origin, hits: () => hits, close: () => new Promise<void>((done) => server.close(() => done())) };
};

/** Every HTML file under `dir` opened in headless Chromium (scripts run, 3 s of virtual time), one after another. */
const openInChromium = async (dir: string): Promise<number> => {
  const pages = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((name) =>
    name.endsWith('.html'),
  );
  for (const page of pages) {
    const profile = mkdtempSync(join(tmpdir(), 'harness-bench-chromium-'));
    await new Promise((done) =>
      spawn(
        CHROMIUM,
        [...chromiumFlags(profile), '--virtual-time-budget=3000', '--dump-dom', `file://${join(dir, page)}`],
        { stdio: 'ignore' },
      ).once('exit', done),
    );
    rmSync(profile, { recursive: true, force: true });
  }
  return pages.length;
};

/**
 * `compare` (or `trend`) of two load runs whose B carries `payload` in the text of its grades, every output opened as
 * its reader would: the HTML in Chromium with a beacon listening, the Markdown searched for a forged row or image.
 */
const hostileGrades = (command: 'compare' | 'trend', where: 'grade' | 'message'): Mode => ({
  exits: where === 'grade' ? [2] : [0, 1],
  setup: async (work) => {
    const beacon = await startBeacon();
    const payload = `<img src="${beacon.origin}/img"><script>fetch("${beacon.origin}/script")</script>\n| worse | \`FORGED\` | PASS | FAIL | forged |\n![x](${beacon.origin}/md)`;
    for (const [run, forge] of [
      ['2026-11-01T00-00-00Z', (grades: Record<string, unknown>[]) => grades],
      [
        '2026-11-02T00-00-00Z',
        // Another grade too, so compare lists the phase and shows the message.
        (grades: Record<string, unknown>[]) =>
          grades.map((g) => ({ ...g, grade: g.grade === 'FAIL' ? 'PASS' : 'FAIL', [where]: payload })),
      ],
    ] as const) {
      mkdirSync(join(work, 'runs', run), { recursive: true });
      writeFileSync(join(work, 'runs', run, 'load-transactions-summary.json'), loadSummary(forge));
    }
    const args =
      command === 'compare'
        ? ['compare', 'runs/2026-11-01T00-00-00Z', 'runs/2026-11-02T00-00-00Z', '--out', 'out']
        : ['trend', 'runs', '--out', 'out/trend.html'];
    return {
      args,
      note: () => `${beacon.hits()} beacon hits`,
      problems: async () => {
        const problems: string[] = [];
        const out = join(work, 'out');
        const pages = readdirSync(work).includes('out') ? await openInChromium(out) : 0;
        if (beacon.hits() > 0) problems.push(`${beacon.hits()} beacon hits from ${pages} pages`);
        for (const name of readdirSync(work).includes('out') ? readdirSync(out) : []) {
          if (!name.endsWith('.md')) continue;
          const text = readFileSync(join(out, name), 'utf8');
          if (/^\| worse \| `FORGED`/m.test(text)) problems.push(`${name} carries the forged row`);
          if (/!\[x\]\(/.test(text)) problems.push(`${name} carries a live image`);
        }
        return problems;
      },
      close: beacon.close,
    };
  },
});

/** C0 (ESC) is refused by undici; C1 bytes pass as U+0080-U+009F, and a terminal reads U+009B as CSI. */
const C1_RETRY_AFTER = '\x9b3J\x9b2J\x9bH\x9b8m 1';

/** `conformance` through a forwarder that puts terminal controls into every 429's Retry-After and a custom header. */
const c1Headers: Mode = {
  exits: [1],
  setup: async (work) => {
    const server = await startReferenceServer(REFERENCE);
    const profile = server.profile();
    const tamper: Tamper = () => ({
      answerHeaders: (status): Record<string, string> =>
        status === 429 ? { 'retry-after': C1_RETRY_AFTER, 'x-note': '\x9d52;c;aGVsbG8=\x9c' } : {},
    });
    const proxy = await startForwarding(new URL(profile.base_url).origin, tamper);
    const { file, env } = profileFile({ ...profile, ...routedThrough(profile, proxy.origin) }, work);
    return {
      args: ['conformance', '--profile', file, '--only', 'limits', '--report-dir', 'reports'],
      env,
      secrets: env,
      issued: () => server.issuedTokens(),
      problems: ({ stdout, stderr }) => {
        // harness's own colours are ESC [ … m; any other control character on the terminal came from the target.
        const withoutColours = (stdout + stderr).replace(/\p{Cc}\[[\d;]*m/gu, (sgr) =>
          sgr.charCodeAt(0) === 0x1b ? '' : sgr,
        );
        const foreign = [...withoutColours.matchAll(/[^\P{Cc}\n\t]/gu)].length;
        return foreign > 0 ? [`${foreign} raw control characters reached the terminal`] : [];
      },
      close: async () => {
        await proxy.close();
        await server.close();
      },
    };
  },
};

/** A short `load` of the transactions scenario on `profile`. */
const loadArgs = (profile: string): string[] => [
  'load',
  '--profile',
  profile,
  '--scenario',
  'transactions',
  '--duration',
  '4s',
  '--report-dir',
  'reports',
];

/** A token answer that decodes to `decodedMb` of zeros: what a few KB on the wire cost a runner that decodes whole. */
const bomb = (encoding: 'br' | 'gzip', decodedMb: number): Buffer => {
  const zeros = Buffer.alloc(decodedMb * 1024 * 1024, 0x20);
  return encoding === 'br'
    ? brotliCompressSync(zeros, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } })
    : gzipSync(zeros, { level: 9 });
};

/** `load` against a target whose every token answer past the pre-flight's is a decompression bomb of `encoding`. */
const tokenBomb = (encoding: 'br' | 'gzip'): Mode => ({
  exits: [1, 3, 5],
  setup: async (work) => {
    const payload = bomb(encoding, 1024);
    let tokens = 0;
    const server = createServer((req, res) => {
      req.resume();
      if (req.method === 'POST' && req.url === TOKEN_PATH) {
        tokens += 1;
        // The first three are the pre-flight's; the bombs come with the scenario's own token requests.
        if (tokens > 3) {
          return void res
            .writeHead(200, { 'content-type': 'application/json', 'content-encoding': encoding })
            .end(payload);
        }
        return void res
          .writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' })
          .end(JSON.stringify({ access_token: 'token-1', expires_in: 2, token_type: 'Bearer' }));
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
    const { origin } = await listenOnLoopback(server);
    const target = await startLoadTarget();
    const profile = { ...target.profile, base_url: origin, auth_url: `${origin}${TOKEN_PATH}` };
    const { file, env } = profileFile(profile, work);
    await target.close();
    return {
      args: loadArgs(file),
      env,
      secrets: env,
      maxRssMb: 1024,
      hangsAfterSeconds: 240,
      note: () => `${tokens} token requests, ${payload.length} bytes each past the pre-flight's`,
      close: () => new Promise<void>((done) => server.close(() => done())),
    };
  },
});

/** 1,000 policies, about 15 KB, in one RateLimit-Policy field (undici takes at most 16 KiB of headers). */
const POLICIES = Array.from({ length: 1000 }, (_, i) => `p${i};q=9;w=60`).join(', ');

/** `load` through a forwarder that adds the 1,000-policy field to every answer. */
const manyPolicies: Mode = {
  exits: [0, 1, 5],
  setup: async (work) => {
    const target = await startLoadTarget();
    const proxy = await startForwarding(new URL(target.profile.base_url).origin, () => ({
      answerHeaders: () => ({ 'ratelimit-policy': POLICIES, ratelimit: 'p0;r=5;t=30' }),
    }));
    const { file, env } = profileFile(
      { ...target.profile, ...routedThrough(target.profile, proxy.origin) },
      work,
    );
    return {
      args: loadArgs(file),
      env,
      secrets: env,
      maxRssMb: 600,
      hangsAfterSeconds: 300,
      close: async () => {
        await proxy.close();
        await target.close();
      },
    };
  },
};

const DEADLINE_S = 20;

/** Every answer 14 s late: the stated deadline bounds the whole process, the reachability request included. */
const slowLoris: Mode = {
  exits: [5],
  setup: async (work) => {
    const server = await startReferenceServer(REFERENCE);
    const profile = server.profile();
    const proxy = await startForwarding(new URL(profile.base_url).origin, () => ({ delayMs: 14_000 }));
    const { file, env } = profileFile({ ...profile, ...routedThrough(profile, proxy.origin) }, work);
    const started = Date.now();
    return {
      args: [
        'conformance',
        '--profile',
        file,
        '--only',
        'token',
        '--deadline',
        `${DEADLINE_S}s`,
        '--report-dir',
        'reports',
      ],
      env,
      secrets: env,
      hangsAfterSeconds: DEADLINE_S * 4,
      // The process's own wall, less the settle wait after it: a few seconds over the deadline to write reports.
      problems: () => {
        const wall = (Date.now() - started) / 1000 - 1.5;
        return wall > DEADLINE_S + 5 ? [`ran ${wall.toFixed(1)} s on a ${DEADLINE_S} s deadline`] : [];
      },
      close: async () => {
        await proxy.close();
        await server.close();
      },
    };
  },
};

export const THIRD_ROUND: Record<string, Mode> = {
  'compare-id-twice': compareForged((r) => ({
    ...r,
    checks: [...checksOf(r), { ...checksOf(r)[0]!, grade: 'PASS' }],
  })),
  'compare-unknown-check': compareForged((r) => ({
    ...r,
    checks: [...checksOf(r), { ...checksOf(r)[0]!, id: 'NOT-A-CHECK', grade: 'PASS' }],
  })),
  'compare-zero-checks': compareForged((r) => ({ ...r, checks: [] })),
  'compare-counts-contradict': compareForged((r) => ({
    ...r,
    counts: { ...(r.counts as object), PASS: 999 },
  })),
  'compare-dev-zero': compareWith(() => '/dev/zero'),
  'compare-fifo': compareWith((work) => {
    execFileSync('mkfifo', [join(work, 'fifo.json')]);
    return 'fifo.json';
  }),
  'compare-300mib': compareWith((work) => {
    cpSync(genuineRun(), join(work, 'big.json'));
    truncateSync(join(work, 'big.json'), 300 * 1024 * 1024);
    return 'big.json';
  }),
  'trend-dated-9999': {
    exits: [2],
    setup: async (work) => {
      const report = genuineReport();
      for (let i = 1; i <= 5; i += 1) runFolder(work, `runs/2026-11-0${i}T00-00-00Z`, report);
      runFolder(work, 'runs/9999-12-31T00-00-00Z', { ...report, startedAt: '9999-12-31T00:00:00.000Z' });
      return { args: ['trend', 'runs', '--out', 'out/trend.html'], hangsAfterSeconds: 60 };
    },
  },
  'compare-html-grade': hostileGrades('compare', 'grade'),
  'compare-html-message': hostileGrades('compare', 'message'),
  'trend-html-message': hostileGrades('trend', 'message'),
  'c1-controls-in-headers': c1Headers,
  'load-token-bomb-br': tokenBomb('br'),
  'load-token-bomb-gzip': tokenBomb('gzip'),
  'load-1000-policies': manyPolicies,
  'slow-loris-deadline': slowLoris,
};
