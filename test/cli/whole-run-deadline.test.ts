// The stated deadline bounds the whole process, the reachability check included: against a target that takes
// seconds to answer anything, `--deadline` is what --dry-run says and what the run takes, not that plus the
// reachability check's wait.
import { createServer } from 'node:http';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { listenOnLoopback } from '../support/listen.ts';
import { harness, SIDE_BY_SIDE, tmp } from './run.ts';

const ANSWER_MS = 8_000;
const DEADLINE_S = 10;

const slow = createServer((_req, res) => {
  setTimeout(() => res.writeHead(503, { 'content-type': 'text/plain' }).end('slow'), ANSWER_MS);
});
let url: string;
beforeAll(async () => {
  url = (await listenOnLoopback(slow)).origin;
});
afterAll(() => {
  slow.closeAllConnections();
  slow.close();
});

const conformance = (...flags: string[]) =>
  harness(['conformance', '--base-url', url, '--auth-url', `${url}/token`, '--tenant', 'acme', ...flags], {
    CLIENT_ID: 'app',
    CLIENT_SECRET: 'slow-secret',
  });

it('ends by --deadline, the slow reachability check drawn from it', SIDE_BY_SIDE, async () => {
  const dryRun = await conformance('--dry-run', '--deadline', `${DEADLINE_S}s`);
  expect(dryRun.stdout).toContain(`the run ends by its deadline, ${DEADLINE_S} s after it starts`);
  const run = await conformance('--deadline', `${DEADLINE_S}s`, '--report-dir', tmp());
  expect(run.stderr).toContain(`harness: the run deadline (${DEADLINE_S} s) passed`);
  // Before, the reachability check's wait came on top: at least ANSWER_MS + DEADLINE_S, plus starting node and writing
  // the reports. Below that sum is the claim, with the rest of an answer's wait as room for a busy machine.
  expect(run.wallMs).toBeLessThan(DEADLINE_S * 1000 + ANSWER_MS);
  expect(run.wallMs).toBeGreaterThan(DEADLINE_S * 1000);
});

it(
  'a deadline shorter than the reachability check ends the run there: unreachable within it',
  SIDE_BY_SIDE,
  async () => {
    const run = await conformance('--deadline', '2s', '--report-dir', tmp());
    expect(run.status).toBe(3);
    expect(run.stderr).toMatch(/no answer within the run deadline \(2 s\)/);
    // It gives up on the reachability check at the deadline, before the target's first answer could come.
    expect(run.wallMs).toBeLessThan(ANSWER_MS);
  },
);
