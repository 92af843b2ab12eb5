// `npx tsx bench/ratelimit-conformance.ts`: what a 1,000-policy RateLimit-Policy (14.9 KB) on every answer costs a
// whole `harness conformance` run, beside the same run without it: wall and peak RSS (/usr/bin/time's %M) against the
// reference server (2 s minutes) behind a forwarder that adds the field. HARNESS_BIN=path/to/harness.js measures
// another build (a worktree of an earlier commit). Linux only.
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { startReferenceServer } from '../src/reference/index.ts';
import { profileFile, tmp } from '../test/cli/run.ts';
import { routedThrough, startForwarding } from '../test/support/forward.ts';

const BIN = process.env.HARNESS_BIN ?? resolve(import.meta.dirname, '../bin/harness.js');
const POLICIES = Array.from({ length: 1000 }, (_, i) => `p${i};q=9;w=60`).join(', ');

const measure = async (headers: Record<string, string>) => {
  const server = await startReferenceServer({ minuteMs: 2000, tokenLifetimeSeconds: 5 });
  const proxy = await startForwarding(new URL(server.profile().base_url).origin, () => ({
    answerHeaders: () => headers,
  }));
  const base = server.profile();
  const { file, env } = profileFile({ ...base, ...routedThrough(base, proxy.origin) });
  const args = [
    '-f',
    '%e %M',
    process.execPath,
    BIN,
    'conformance',
    '--profile',
    file,
    '--report-dir',
    tmp(),
  ];
  const { code, stdout, stderr } = await new Promise<{ code: number; stdout: string; stderr: string }>(
    (done) =>
      execFile(
        '/usr/bin/time',
        args,
        { env: { ...process.env, ...env }, maxBuffer: 64 << 20 },
        (error, out, err) =>
          done({ code: typeof error?.code === 'number' ? error.code : 0, stdout: out, stderr: err }),
      ),
  );
  await proxy.close();
  await server.close();
  const [wall, kb] = stderr.trim().split('\n').at(-1)!.split(' ');
  const summary = stdout.split('\n').find((line) => line.startsWith('summary:')) ?? '';
  return `${wall} s | ${Math.round(Number(kb) / 1024)} MB | ${code} | ${summary}`;
};

console.log('| answers | wall | peak RSS | exit | summary |\n|---|---|---|---|---|');
console.log(`| plain | ${await measure({})} |`);
console.log(
  `| 1,000 policies | ${await measure({ 'ratelimit-policy': POLICIES, ratelimit: 'p0;r=5;t=30' })} |`,
);
