// What a broken target can cost `harness load`'s k6: API answers of 16 MB must not pile up in its memory, and a
// failing token endpoint under hundreds of VUs gets at most the whole run's token bound (core/token-turns.ts).
import { existsSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { vusFor } from '../../core/schedule.ts';
import { TOKEN_REQUESTS_PER_SECOND, tokenTurns, turnPeriodMs } from '../../core/token-turns.ts';
import { MAX_TOKEN_BODY_BYTES } from '../../core/wire.ts';
import { DEFAULT_MAX_BODY_BYTES } from '../../src/client/evidence.ts';
import { peakK6Rss } from '../support/k6-rss.ts';
import { type LoadTarget, startLoadTarget } from '../support/load-target.ts';
import { runLoad } from './run-load.ts';

let target: LoadTarget | undefined;
afterEach(async () => {
  await target?.close();
  target = undefined;
});

/** The pre-flight's token requests for `--scenario transactions`: one, then two more to time round trips. */
const PREFLIGHT_TOKENS = 3;

describe('token turns', () => {
  it('give 2,000 VUs asking every 10 ms at most 1 + 10 token requests a second between them', () => {
    const vus = Array.from({ length: 2000 }, (_, vu) => tokenTurns(vu, 2000, 0));
    let sent = 0;
    for (let now = 0; now <= 30_000; now += 10) for (const vu of vus) if (vu.take(now)) sent++;
    expect(sent).toBe(301);
  });

  it('give one VU a turn a period, never two for one', () => {
    const turns = tokenTurns(3, 50, 1000);
    expect(turnPeriodMs(50)).toBe(5000);
    expect([1299, 1300, 1301, 6299, 6300, 9000, 11_300].map((now) => turns.take(now))).toEqual([
      false,
      true,
      false,
      false,
      true,
      false,
      true,
    ]);
  });
});

describe('harness load against a costly target', () => {
  it('caps a token answer as harness does its own', () => {
    expect(MAX_TOKEN_BODY_BYTES).toBe(DEFAULT_MAX_BODY_BYTES);
  });

  it.runIf(existsSync('/proc/self'))(
    'keeps k6 small when every API answer is 16 MB: the bodies are discarded, not held',
    { timeout: 120_000 },
    async () => {
      target = await startLoadTarget({ apiBodyBytes: 16 * 1024 * 1024 });
      // Any k6 on the machine: runLoad picks its own report folder.
      const { result: run, peakKb } = await peakK6Rss(
        '',
        runLoad(target.profile, ['--scenario', 'transactions', '--duration', '3s']),
      );
      // The target enforces no limit: a FAIL (1) where k6 kept its schedule, no verdict (5) where it was starved.
      expect([1, 5], run.stdout + run.stderr).toContain(run.status);
      expect(target.apiRequests.length).toBeGreaterThan(100);
      // Measured: 4.5 GB holding the bodies, 250 MB discarding them.
      expect(peakKb).toBeGreaterThan(0);
      expect(peakKb).toBeLessThan(1024 * 1024);
    },
  );

  it('sends a failing token endpoint under ~600 VUs at most 1 + 10 token requests a second of the run', {
    timeout: 180_000,
  }, async () => {
    // The pre-flight's API call takes 800 ms, so k6 is sized for 800 ms round trips: 600 VUs for 400/s. Its
    // tokens expire at once (renewed after a second), and every later token request gets 503.
    target = await startLoadTarget({ tokens: PREFLIGHT_TOKENS, expiresIn: 2, slowCalls: 1, slowMs: 800 });
    target.profile.limits = { 'transaction-event': { count: 200, per: 'second' } };
    const run = await runLoad(target.profile, ['--scenario', 'transactions', '--duration', '3s']);
    // Every phase INCONCLUSIVE: no verdict.
    expect(run.status, run.stdout + run.stderr).toBe(5);
    const over = run.summary.phases.find((p) => p.plan.phase === 'over')!;
    expect(vusFor(over.plan, 800, 1).preAllocatedVUs).toBeGreaterThanOrEqual(600);
    const preflightEnd = target.tokenRequests[PREFLIGHT_TOKENS - 1]!;
    const fromK6 = target.tokenRequests.slice(PREFLIGHT_TOKENS);
    expect(fromK6.length).toBeGreaterThan(0);
    // The run starts after the pre-flight: t seconds from its end is at least t seconds of the run.
    const seconds = (fromK6.at(-1)! - preflightEnd) / 1000;
    expect(fromK6.length).toBeLessThanOrEqual(1 + TOKEN_REQUESTS_PER_SECOND * seconds);
    for (const phase of run.summary.phases) expect(run.grades[phase.plan.name]).toBe('INCONCLUSIVE');
    // Measured: 2,633 token requests in 20 s with a backoff per VU, 91 in 19 s with the run's bound.
  });

  it('takes no token from a 16 MB token answer, and reads at most the bound of them', {
    timeout: 120_000,
  }, async () => {
    target = await startLoadTarget({ tokens: PREFLIGHT_TOKENS, expiresIn: 2, hugeTokens: true });
    const run = await runLoad(target.profile, ['--scenario', 'transactions', '--duration', '3s']);
    // Every phase INCONCLUSIVE: no verdict.
    expect(run.status, run.stdout + run.stderr).toBe(5);
    expect(run.stdout).toMatch(
      /^INCONCLUSIVE\s+over_transactions\s+.*not sent for want of a token: the token endpoint sent an answer over 65536 bytes: not read past them; \d+ token requests got no token/m,
    );
    // k6 read no more of it than the bound (load/checkpoint/token.go), and says so.
    expect(run.stderr).toMatch(
      /^\[k6\] .*a token answer \(status 200\): the token endpoint sent an answer over 65536 bytes: not read past them; no token from it/m,
    );
    const fromK6 = target.tokenRequests.slice(PREFLIGHT_TOKENS);
    const seconds = (fromK6.at(-1)! - target.tokenRequests[PREFLIGHT_TOKENS - 1]!) / 1000;
    expect(fromK6.length).toBeLessThanOrEqual(1 + TOKEN_REQUESTS_PER_SECOND * seconds);
  });
});
