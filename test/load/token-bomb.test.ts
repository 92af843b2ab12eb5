// `harness load` against a token endpoint that answers with a compression bomb (1.6 KB of brotli, 1 MB of gzip, each
// a GiB decoded): k6 reads token answers through harness's reader (load/checkpoint/token.go), which never decodes
// one, so the answer gives no token, the phases say the token endpoint gave none, and k6 says why. What it costs k6 in
// memory is measured by bench/k6-hostile-memory.ts (docs/bounds.md), not asserted here.
import { afterEach, describe, expect, it } from 'vitest';
import { TOKEN_REQUESTS_PER_SECOND } from '../../core/token-turns.ts';
import { findK6, hasTokenModule } from '../../src/k6-driver/k6.ts';
import { compressionBomb, startTokenBombServer, type TokenBombServer } from '../support/token-bomb.ts';
import { runLoad } from './run-load.ts';

let running: TokenBombServer | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

const K6 = findK6();

describe.runIf(hasTokenModule(K6))('harness load against a token endpoint sending compression bombs', () => {
  it.each(['br', 'gzip'] as const)(
    'takes no token from a %s bomb, decodes none of it, grades every phase INCONCLUSIVE and says why',
    { timeout: 180_000 },
    async (encoding) => {
      running = await startTokenBombServer(encoding, await compressionBomb(encoding, 1024));
      const run = await runLoad(running.profile, ['--scenario', 'transactions', '--duration', '3s']);
      expect(run.status, run.stdout + run.stderr).toBe(5);
      for (const phase of run.summary.phases) expect(run.grades[phase.plan.name]).toBe('INCONCLUSIVE');
      expect(run.stdout).toMatch(
        /^INCONCLUSIVE\s+over_transactions\s+.*not sent for want of a token: the token endpoint sent an encoded answer \(Content-Encoding\) though identity was asked for: not decoded; \d+ token requests got no token/m,
      );
      // Once per VU, folded by the CLI into one line and a count.
      expect(run.stderr).toMatch(
        /^\[k6\] .*harness: a token answer \(status 200\): the token endpoint sent an encoded answer \(Content-Encoding\) though identity was asked for: not decoded; no token from it/m,
      );
      expect(run.stderr).not.toMatch(/decoded whole|GoError|panic/);
      expect(running.bombsSent()).toBeGreaterThan(0);
      expect(running.bombsSent()).toBeLessThanOrEqual(1 + TOKEN_REQUESTS_PER_SECOND * 30);
      for (const text of [run.stdout, run.stderr, ...run.artifacts])
        expect(text).not.toContain('bomb-secret-7f3a');
    },
  );
});
