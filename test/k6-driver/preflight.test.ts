// The pre-flight against a small server on loopback whose answers are wrong in one way each: the run must end as the
// target's fault (exit 3, one line naming the answer), never as harness's; and it sends the requests conformance does.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { TokenError } from '../../src/client/index.ts';
import { k6PlanFor } from '../../src/k6-driver/plan.ts';
import { PreflightError, runPreflight } from '../../src/k6-driver/preflight.ts';
import { resolveTarget } from '../../src/profile/target.ts';
import type { Profile } from '../../src/spec/index.ts';
import { harness, profileFile } from '../cli/run.ts';
import { runLoad } from '../load/run-load.ts';
import { listenOnLoopback } from '../support/listen.ts';

const UPLOAD_URL = 'POST /api/transactions/batch/generate-upload-url';

interface Answers {
  /** The token endpoint's body for a 200. */
  readonly token: string;
  /** generate-upload-url's body for a 200. */
  readonly upload: string;
}

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  server?.close();
  server = undefined;
});

/** Answers 200 to everything with the given bodies; records the headers of every API request. */
const start = async (answers: Answers) => {
  const seen: { url: string; headers: IncomingHttpHeaders }[] = [];
  server = createServer((req, res) => {
    req.resume();
    seen.push({ url: req.url ?? '', headers: req.headers });
    const body = req.url === '/oauth2/token' ? answers.token : answers.upload;
    res.writeHead(200, { 'content-type': 'application/json' }).end(body);
  });
  const { origin: url } = await listenOnLoopback(server);
  const profile: Profile = {
    base_url: url,
    auth_url: `${url}/oauth2/token`,
    tenant: 'acme',
    clients: { primary: { client_id: 'load', client_secret: 'load-secret' } },
    ids: { batch_id: { from: UPLOAD_URL, pointer: '/batch_id' } },
    requests: { [UPLOAD_URL]: { headers: { 'X-Api-Version': '2', Authorization: 'Basic not-this' } } },
  };
  return { profile, seen };
};

const TOKEN = JSON.stringify({ access_token: 'tok', expires_in: 3600, token_type: 'Bearer' });
const preflightOf = (profile: Profile) =>
  runPreflight(profile, k6PlanFor(resolveTarget(profile), { scenarios: ['batch-status'] }));

describe('the load pre-flight', () => {
  it('sends the profile headers of the id source, with its own bearer token, as conformance does', async () => {
    const { profile, seen } = await start({ token: TOKEN, upload: '{"batch_id":"b-7"}' });
    const preflight = await preflightOf(profile);
    expect(preflight.ids).toEqual({ batch_id: 'b-7' });
    const upload = seen.find((r) => r.url === '/api/transactions/batch/generate-upload-url');
    expect(upload?.headers['x-api-version']).toBe('2');
    expect(upload?.headers.authorization).toBe('Bearer tok');
  });

  it('takes a 200 whose body is null for a failed token request', async () => {
    const { profile } = await start({ token: 'null', upload: '{"batch_id":"b-7"}' });
    const failed = preflightOf(profile);
    await expect(failed).rejects.toThrow(TokenError);
    await expect(failed).rejects.toThrow(
      "pre-flight: primary's token request: the token endpoint answered 200 without a usable access_token",
    );
  });

  it('blames the target for an id source that answers without the id', async () => {
    const { profile } = await start({ token: TOKEN, upload: '{}' });
    const failed = preflightOf(profile);
    await expect(failed).rejects.toBeInstanceOf(PreflightError);
    await expect(failed).rejects.toThrow(`pre-flight: ${UPLOAD_URL} answered 200 without batch_id`);
  });

  it('ends `harness load` with exit 3 and one line on either answer, before k6 starts', {
    timeout: 60_000,
  }, async () => {
    for (const answers of [
      { token: 'null', upload: '{}' },
      { token: TOKEN, upload: '[]' },
    ]) {
      const { profile } = await start(answers);
      const { file, env } = profileFile(profile);
      const run = await harness(['load', '--profile', file, '--scenario', 'batch-status'], env);
      expect(run.status, run.stderr).toBe(3);
      expect(run.stderr.trim().split('\n').at(-1)).toMatch(
        /^harness: target unusable, no phase run: pre-flight: /,
      );
      server?.closeAllConnections();
      server?.close();
    }
  });

  it("k6's probe requests carry the profile's headers too", { timeout: 120_000 }, async () => {
    const { profile, seen } = await start({ token: TOKEN, upload: '{}' });
    const transactions = 'POST /event/transaction/v3';
    const run = await runLoad(
      {
        ...profile,
        ids: {},
        limits: { 'transaction-event': { count: 20, per: 'second' } },
        requests: { [transactions]: { headers: { 'X-Api-Version': '2', Authorization: 'Basic not-this' } } },
      },
      ['--scenario', 'transactions', '--duration', '3s'],
    );
    expect(run.summary.phases.length, run.stderr).toBe(3);
    const probes = seen.filter((r) => r.url === '/event/transaction/v3');
    // The pre-flight's timed call, then k6's.
    expect(probes.length).toBeGreaterThan(10);
    for (const { headers } of probes) {
      expect(headers['x-api-version']).toBe('2');
      expect(headers.authorization).toBe('Bearer tok');
    }
  });
});
