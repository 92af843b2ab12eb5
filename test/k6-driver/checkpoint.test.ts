// The harness-checkpoint output (load/checkpoint, built into k6 by `npm run setup`) against k6's own end-of-test
// summary: a run left to finish writes both, and what harness reads back from the last checkpoint must be the
// summary k6 wrote, phase by phase and slot by slot. Only then is a killed k6's checkpoint evidence.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoadSummary } from '../../core/evidence.ts';
import { readCheckpoint, runnerSummary, summaryFromCheckpoint } from '../../src/k6-driver/checkpoint.ts';
import { findK6, hasCheckpoint } from '../../src/k6-driver/k6.ts';
import { prepareRunners, SCRIPT } from '../../src/k6-driver/run.ts';
import { type RunningReferenceServer, startReferenceServer } from '../../src/reference/index.ts';
import { tmp } from '../cli/run.ts';

const LIMIT = { 'transaction-event': { count: 80, per: 'second' as const } };

const runK6 = (k6: string, args: readonly string[], env: NodeJS.ProcessEnv) =>
  new Promise<number>((done, fail) => {
    const child = spawn(k6, ['run', '--quiet', ...args, SCRIPT], { env, stdio: 'ignore' });
    child.once('error', fail);
    child.once('close', (code) => done(code ?? 1));
  });

let server: RunningReferenceServer;
beforeAll(async () => {
  server = await startReferenceServer({ minuteMs: 2000, limits: LIMIT });
});
afterAll(() => server?.close());

describe.runIf(hasCheckpoint(findK6()))('a checkpoint of a finished run', () => {
  it('reads back as the summary k6 wrote: every phase, slot and the runner', {
    timeout: 90_000,
  }, async () => {
    const dir = tmp();
    const prepared = await prepareRunners({
      k6: findK6(),
      profile: server.profile(),
      plan: { scenarios: ['transactions'], durationMs: 2000 },
      instances: 1,
      dir,
      label: 'transactions',
      versions: { harness: 'test', k6: 'v2.2.0' },
    });
    const [runner] = prepared.runners;
    expect(runner!.checkpointFile).toBeDefined();
    const code = await runK6(findK6(), runner!.args, { ...runner!.env, K6_WEB_DASHBOARD: 'false' });
    expect(code).toBe(0);
    const written = JSON.parse(readFileSync(runner!.summaryFile, 'utf8')) as LoadSummary;
    const { plan, targetName, startAt, runId, preflight } = prepared;
    const versions = { harness: 'test', k6: 'v2.2.0' };
    const context = {
      plan,
      targetName,
      startAt,
      runId,
      versions,
      instances: 1,
      roundTripMs: preflight.roundTripMs,
    };
    const { summary } = summaryFromCheckpoint(readCheckpoint(runner!.checkpointFile!)!, runner!, context);
    expect(written.phases.some((p) => p.limited > 0)).toBe(true);
    // Every phase's latency percentiles, from k6's http_req_duration, in both.
    expect(
      written.phases.every((p) => p.latencyMs !== undefined && p.latencyMs.p95Ms >= p.latencyMs.p50Ms),
    ).toBe(true);
    expect(summary.phases).toEqual(written.phases);
    expect(summary.runner).toEqual(written.runner);
    expect(summary.lateMs).toEqual(written.lateMs);
    expect(summary.preflightRequests).toEqual(written.preflightRequests);
    // Read as a runner's summary: k6's own file wins, and the checkpoint beside it goes.
    const read = runnerSummary(runner!, 0, code, context);
    expect(read?.source).toBe('runners/runner-1.json');
    expect(read?.judgedUntil).toBeUndefined();
    expect(existsSync(runner!.checkpointFile!)).toBe(false);
  });
});

describe('a runner that wrote no summary', () => {
  const runner = (dir: string) => ({
    env: {},
    segment: '0:1',
    sequence: '',
    summaryFile: join(dir, 'runner-1.json'),
    checkpointFile: join(dir, 'runner-1.checkpoint.json'),
  });
  const context = {
    plan: { probes: [], preflight: { requestsPerLimiter: {} } } as never,
    instances: 1,
    targetName: 'http://127.0.0.1:1',
    startAt: 1_000_000,
    roundTripMs: 10,
    runId: 'r',
    versions: undefined,
  };

  it('is judged from its checkpoint up to the graceful stop and a second before it was written', () => {
    const dir = tmp();
    const shot = {
      writtenAt: 1_020_000,
      metrics: { harness_started_at: { value: 1_000_500, min: 0, max: 0 } },
    };
    writeFileSync(runner(dir).checkpointFile, JSON.stringify(shot));
    const read = runnerSummary(runner(dir), 0, 137, context);
    expect(read?.source).toBe('runners/runner-1.checkpoint.json');
    // 20 s after the common start, less the 0.5 s setup() took, the 2 s graceful stop and the 1 s for delivery.
    expect(read?.judgedUntil).toEqual({
      reason:
        'k6 instance 1 ended (exit 137) without its summary; its last checkpoint, 16.5 s into the run, came',
      atMs: 16_500,
    });
    expect(read?.summary.runner?.setupCompleted).toBe(true);
  });

  it('has no phase judged when setup() never finished, and no summary at all without a checkpoint', () => {
    const dir = tmp();
    writeFileSync(runner(dir).checkpointFile, JSON.stringify({ writtenAt: 1_020_000, metrics: {} }));
    expect(runnerSummary(runner(dir), 0, 137, context)?.judgedUntil?.atMs).toBe(0);
    writeFileSync(runner(dir).checkpointFile, '{"writtenAt": "soon"}');
    expect(runnerSummary(runner(dir), 0, 137, context)).toBeUndefined();
    expect(runnerSummary(runner(tmp()), 0, 137, context)).toBeUndefined();
  });
});
