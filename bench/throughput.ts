// The reference server's throughput for authorised POST /event/transaction/v3 next to a bare node:http server, each
// in its own process, measured side by side in alternating rounds so machine noise hits both alike.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parse } from 'yaml';
import { HttpClient, TokenManager } from '../src/client/index.ts';
import type { Profile } from '../src/spec/index.ts';
import { type BurstResult, runBurst } from './burst.ts';
import { closedLoop, type LoadResult } from './load.ts';

const root = resolve(import.meta.dirname, '..');

const start = (args: string[]): Promise<{ child: ChildProcess; url: string }> =>
  new Promise((resolvePromise, reject) => {
    const child = spawn(args[0]!, args.slice(1), { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    // harness serve says where it listens on stderr (stdout is its profile); the bare server, on stdout.
    for (const stream of [child.stdout!, child.stderr!]) {
      stream.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
        if (match) resolvePromise({ child, url: match[1]! });
      });
    }
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code} before listening`)));
  });

const token = async (profile: Profile): Promise<string> => {
  const http = new HttpClient();
  try {
    return await new TokenManager({ authUrl: profile.auth_url, tenant: profile.tenant, http }).token(
      profile.clients.primary,
    );
  } finally {
    await http.close();
  }
};

/** CPU seconds (user + system) a process has used so far, from /proc (Linux), in clock ticks of 10 ms. */
const cpuSeconds = (pid: number): number => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
};

/** Requests per CPU second of the server: what it could serve if the load generator were not the bottleneck. */
const measure = async (server: { child: ChildProcess; url: string }, run: () => Promise<LoadResult>) => {
  const before = cpuSeconds(server.child.pid!);
  const result = await run();
  const cpu = cpuSeconds(server.child.pid!) - before;
  return { ...result, serverCpuSeconds: cpu, requestsPerCpuSecond: result.requests / cpu };
};

type Measured = LoadResult & { serverCpuSeconds: number; requestsPerCpuSecond: number };

export interface ThroughputResult {
  readonly rounds: number;
  readonly secondsPerRound: number;
  readonly bare: readonly Measured[];
  readonly reference: readonly Measured[];
  /** Reference requests/s over bare requests/s, summed over all rounds (bounded by the shared load generator). */
  readonly ratio: number;
  /** Reference requests per server CPU second over bare's: the capacity ratio, whoever the bottleneck is. */
  readonly cpuRatio: number;
  readonly burst: BurstResult;
}

export const runThroughput = async (rounds = 3, durationMs = 3000): Promise<ThroughputResult> => {
  const profileFile = join(mkdtempSync(join(tmpdir(), 'harness-bench-')), 'profile.yaml');
  // The limit is lifted so the measurement is of the server's work, not of its 500/s limit.
  const reference = await start([
    process.execPath,
    join(root, 'bin', 'harness.js'),
    'serve',
    '--limit',
    'transaction-event=1000000000/second',
    '--profile-out',
    profileFile,
  ]);
  // node itself (with tsx as a loader), not the tsx launcher, so the pid measured is the server's.
  const bare = await start([process.execPath, '--import', 'tsx', join(root, 'bench', 'bare-server.ts')]);
  try {
    const profile = parse(readFileSync(profileFile, 'utf8')) as Profile;
    const body = JSON.stringify(profile.requests?.['POST /event/transaction/v3']?.body ?? {});
    const request = (authorization?: string) => ({
      method: 'POST' as const,
      path: '/event/transaction/v3',
      headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) },
      body,
    });
    const authorised = request(`Bearer ${await token(profile)}`);
    const options = { connections: 32, durationMs };
    await closedLoop(reference.url, authorised, { ...options, durationMs: 500 });
    await closedLoop(bare.url, request(), { ...options, durationMs: 500 });
    const results = { bare: [] as Measured[], reference: [] as Measured[] };
    for (let round = 0; round < rounds; round++) {
      results.reference.push(await measure(reference, () => closedLoop(reference.url, authorised, options)));
      results.bare.push(await measure(bare, () => closedLoop(bare.url, request(), options)));
    }
    const total = (list: Measured[]) => list.reduce((sum, r) => sum + r.requests, 0);
    const cpu = (list: Measured[]) => list.reduce((sum, r) => sum + r.serverCpuSeconds, 0);
    const refused = results.reference.flatMap((r) => Object.keys(r.statuses)).filter((s) => s !== '202');
    if (refused.length > 0)
      throw new Error(`the reference server answered ${refused.join(', ')}: not a fair measurement`);
    const ratio = total(results.reference) / total(results.bare);
    const cpuRatio =
      total(results.reference) / cpu(results.reference) / (total(results.bare) / cpu(results.bare));
    return {
      rounds,
      secondsPerRound: durationMs / 1000,
      ...results,
      ratio,
      cpuRatio,
      burst: await runBurst(profile),
    };
  } finally {
    reference.child.kill('SIGTERM');
    bare.child.kill('SIGTERM');
  }
};
