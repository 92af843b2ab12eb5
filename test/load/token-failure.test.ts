// `harness load` against a target whose token endpoint fails: a small server on loopback that issues the
// pre-flight's tokens (valid for two seconds) and then answers 503 or hangs, or answers 503 from the start. The run must
// not hammer the token endpoint once per iteration nor print a stack trace each time, and no phase may pass over
// requests that were never sent.
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import type { Profile } from '../../src/spec/index.ts';
import { harness, profileFile } from '../cli/run.ts';
import { listenOnLoopback } from '../support/listen.ts';
import { runLoad } from './run-load.ts';

interface TokenServer {
  readonly profile: Profile;
  /** Token requests answered so far, and how many of them issued a token. */
  readonly tokenRequests: () => { total: number; issued: number };
  close(): Promise<void>;
}

/**
 * Issues `issuing` tokens, then refuses every token request with 503 or leaves it unanswered; API calls with a
 * bearer token get 200.
 */
const startTokenServer = async (issuing: number, then: 'fail' | 'hang' = 'fail'): Promise<TokenServer> => {
  let total = 0;
  const server: Server = createServer((req, res) => {
    req.resume();
    if (req.method === 'POST' && req.url === '/oauth2/token') {
      total++;
      if (total > issuing && then === 'hang') return;
      if (total > issuing) {
        res.writeHead(503, { 'content-type': 'application/json' }).end('{"error":"temporarily_unavailable"}');
        return;
      }
      res
        .writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' })
        .end(JSON.stringify({ access_token: `token-${total}`, expires_in: 2, token_type: 'Bearer' }));
      return;
    }
    const authorised = req.headers.authorization?.startsWith('Bearer token-');
    res.writeHead(authorised ? 200 : 401, { 'content-type': 'application/json' }).end('{}');
  });
  const { origin: url } = await listenOnLoopback(server);
  return {
    profile: {
      base_url: url,
      auth_url: `${url}/oauth2/token`,
      tenant: 'acme',
      clients: { primary: { client_id: 'load', client_secret: 'load-secret' } },
      limits: { 'transaction-event': { count: 100, per: 'second' } },
    },
    tokenRequests: () => ({ total, issued: Math.min(total, issuing) }),
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
};

let running: TokenServer | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

describe('harness load against a failing token endpoint', () => {
  it('backs off, sends nothing without a token, grades every phase INCONCLUSIVE naming the 503, and exits 5', {
    timeout: 120_000,
  }, async () => {
    running = await startTokenServer(3);
    const run = await runLoad(running.profile, ['--scenario', 'transactions', '--duration', '3s']);
    // Nothing was verified: no verdict, never a pass.
    expect(run.status, run.stdout + run.stderr).toBe(5);
    expect(run.stderr).toMatch(
      /^harness: no verdict \(exit 5\): 3 phases INCONCLUSIVE \(within_transactions, /m,
    );
    const phases = run.summary.phases;
    expect(phases.map((p) => p.plan.name)).toEqual([
      'within_transactions',
      'over_transactions',
      'knee_transactions',
    ]);
    for (const name of phases.map((p) => p.plan.name)) expect(run.grades[name]).toBe('INCONCLUSIVE');
    expect(run.stdout).toMatch(
      /^INCONCLUSIVE\s+over_transactions\s+harness could not offer 200\/s: \d+ requests not sent for want of a token: the token endpoint answered 503 to \d+ token requests/m,
    );
    const { total, issued } = running.tokenRequests();
    const offered = phases.reduce((n, p) => n + p.offered, 0);
    const unsent = phases.reduce((n, p) => n + p.noToken, 0);
    // Once tokens fail, a VU asks again only on its turn (core/token-turns.ts: the run's token requests at
    // most 1 + 10 a second), never once per iteration; bounds.test.ts holds it to that bound under 600 VUs.
    expect(issued).toBe(3);
    expect(unsent).toBeGreaterThan(offered / 2);
    expect(total - issued).toBeLessThan(unsent / 2);
    // One line a phase from harness, and nothing k6 prints per iteration: no stack trace, no repeated error.
    expect(run.stderr).not.toMatch(/GoError|at tokenFor|stack/i);
    expect(run.stderr.split('\n').length).toBeLessThan(20);
  });

  it('ends before k6 starts, in one line naming the answer, when the pre-flight gets no token', {
    timeout: 60_000,
  }, async () => {
    running = await startTokenServer(0);
    const { file, env } = profileFile(running.profile);
    const run = await harness(['load', '--profile', file, '--scenario', 'transactions'], env);
    expect(run.status).toBe(3);
    expect(run.stderr.trim().split('\n').at(-1)).toBe(
      "harness: target unusable, no phase run: pre-flight: primary's token request: the token endpoint answered 503 without a usable access_token",
    );
    expect(running.tokenRequests().total).toBe(1);
  });

  it('with --timeout, k6 gives up on a hanging token endpoint: the phases say it did not answer, k6 says so once', {
    timeout: 120_000,
  }, async () => {
    running = await startTokenServer(3, 'hang');
    const args = ['--scenario', 'transactions', '--duration', '3s', '--timeout', '1000'];
    const run = await runLoad(running.profile, args);
    expect(run.status, run.stdout + run.stderr).toBe(5);
    for (const phase of run.summary.phases) {
      expect(run.grades[phase.plan.name]).toBe('INCONCLUSIVE');
      expect(phase.tokenFailures?.maxStatus).toBe(0);
    }
    expect(run.stdout).toMatch(
      /^INCONCLUSIVE\s+over_transactions\s+harness could not offer 200\/s: \d+ requests not sent for want of a token: the token endpoint did not answer to \d+ token requests/m,
    );
    // The token reader's warning per timed-out request (load/lib/auth.ts), passed on once and then counted.
    const warnings = run.stderr.split('\n').filter((line) => /a token request failed/.test(line));
    expect(warnings.length).toBeLessThanOrEqual(2);
    expect(run.stderr).toMatch(/^\[k6\] \d+ more lines like: .*a token request failed: timed out/m);
    // What to do about it, once, after the summary.
    expect(run.stderr.match(/^advice: .*look at the token endpoint/gm)).toHaveLength(1);
  });
});
