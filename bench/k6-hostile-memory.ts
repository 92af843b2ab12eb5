// `npx tsx bench/k6-hostile-memory.ts [OLD_K6]`: what a token endpoint's compression bomb and a 1,000-policy
// RateLimit-Policy on every answer cost `harness load`'s k6, beside what 16 MB API answers and plain answers cost it
// (docs/bounds.md). BENCH_CASE=text runs only the cases whose name holds it. Each case runs `harness load --scenario transactions` once per k6:
// the one `npm run setup` builds (tools/, with k6/x/harness-token) and, given OLD_K6, one without the token reader
// (a build of load/checkpoint before token.go, or a stock k6), which decodes every token answer whole. A k6 past
// 8 GB is killed, so the old reader cannot take the machine down. Linux only (it samples /proc).
import { findK6 } from '../src/k6-driver/k6.ts';
import type { Profile } from '../src/spec/index.ts';
import { harness, profileFile, tmp } from '../test/cli/run.ts';
import { peakK6Rss } from '../test/support/k6-rss.ts';
import { startLoadTarget } from '../test/support/load-target.ts';
import { compressionBomb, startTokenBombServer } from '../test/support/token-bomb.ts';

const KILL_ABOVE_KB = 8 * 1024 * 1024;

interface Case {
  readonly name: string;
  readonly start: () => Promise<{ profile: Profile; close: () => Promise<void>; note: () => string }>;
}

const bombCase = (encoding: 'br' | 'gzip'): Case => ({
  name: `token answers: ${encoding} bomb (1 GiB of zeros)`,
  start: async () => {
    const bomb = await compressionBomb(encoding, 1024);
    const server = await startTokenBombServer(encoding, bomb);
    return { ...server, note: () => `${server.bombsSent()} bombs of ${bomb.length} bytes sent` };
  },
});

/** 1,000 policies in one field of 14.9 KB: undici, harness's own client, refuses a header section past 16 KiB. */
const POLICIES = Array.from({ length: 1000 }, (_, i) => `p${i};q=9;w=60`).join(', ');

const answersCase = (name: string, headers: Record<string, string>): Case => ({
  name,
  start: async () => {
    const server = await startTokenBombServer('br', undefined, 0, headers);
    return { ...server, note: () => '' };
  },
});

const CASES: readonly Case[] = [
  bombCase('br'),
  bombCase('gzip'),
  answersCase('plain API answers', {}),
  answersCase('API answers with 1,000 policies (14.9 KB)', {
    'ratelimit-policy': POLICIES,
    ratelimit: 'p0;r=5;t=30',
  }),
  {
    name: 'API answers of 16 MB',
    start: async () => {
      const target = await startLoadTarget({ apiBodyBytes: 16 * 1024 * 1024 });
      return {
        profile: target.profile,
        close: () => target.close(),
        note: () => `${target.apiRequests.length} API requests`,
      };
    },
  },
];

const k6s = [findK6(), ...process.argv.slice(2)];
console.log('| k6 | case | exit | k6 peak RSS | wall | target saw |\n|---|---|---|---|---|---|');
for (const k6 of k6s) {
  for (const { name, start } of CASES.filter((c) => c.name.includes(process.env.BENCH_CASE ?? ''))) {
    const target = await start();
    const { file, env } = profileFile(target.profile);
    const dir = tmp();
    const args = [
      'load',
      '--profile',
      file,
      '--report-dir',
      dir,
      '--scenario',
      'transactions',
      '--duration',
      '4s',
    ];
    const { result, peakKb, killed } = await peakK6Rss(
      dir,
      harness(args, { ...env, K6_BIN: k6 }, 300_000),
      KILL_ABOVE_KB,
    );
    await target.close();
    const peak = `${Math.round(peakKb / 1024)} MB${killed ? ' (killed past 8 GB)' : ''}`;
    console.log(
      `| ${k6} | ${name} | ${result.status} | ${peak} | ${(result.wallMs / 1000).toFixed(1)} s | ${target.note()} |`,
    );
  }
}
