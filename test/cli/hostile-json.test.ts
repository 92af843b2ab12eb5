// A target whose answers nest JSON thousands of levels deep: 5,000 levels (10 KB, which overflowed the stack of the
// check quoting a token field: a harness ERROR, and exit 4 hid the run's FAILs) and 100,000 (past the body bound,
// which harness cuts). Whether the token endpoint or the API answers so, every check ends with a verdict on the
// target, none with a harness ERROR, and the run never exits 4.
import { readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningReferenceServer, startReferenceServer } from '../../src/reference/index.ts';
import { conformanceErrors } from '../../src/report/write.ts';
import type { RunReport } from '../../src/runner/types.ts';
import { type Forwarded, routedThrough, startForwarding } from '../support/forward.ts';
import { SCALED } from '../support/testbed.ts';
import { harness, profileFor, SIDE_BY_SIDE, secretsOf, tmp } from './run.ts';

const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

let server: RunningReferenceServer;
beforeAll(async () => {
  server = await startReferenceServer(SCALED);
});
afterAll(() => server.close());

/** A full run through a proxy that answers deep JSON where `deep` says, and forwards everything else. */
const runAnswering = async (deep: (req: Forwarded) => boolean, body: string) => {
  const profile = server.profile();
  const proxy = await startForwarding(new URL(profile.base_url).origin, (req) =>
    deep(req) ? { status: 200, body } : undefined,
  );
  try {
    const { file, env } = profileFor(server, routedThrough(profile, proxy.origin));
    const reportDir = tmp();
    const result = await harness(['conformance', '--profile', file, '--report-dir', reportDir], env);
    const json = readFileSync(join(realpathSync(join(reportDir, 'latest')), 'conformance.json'), 'utf8');
    return { ...result, json, report: JSON.parse(json) as RunReport };
  } finally {
    await proxy.close();
  }
};

const isTokenRequest = ({ method, path }: Forwarded) =>
  method === 'POST' && path === new URL(server.authUrl).pathname;

const expectVerdicts = (run: Awaited<ReturnType<typeof runAnswering>>) => {
  const errors = run.report.checks.filter((c) => c.grade === 'ERROR').map((c) => `${c.id}: ${c.message}`);
  expect(errors).toEqual([]);
  expect(run.status, run.stderr).toBe(1);
  expect(run.stdout).toMatch(/^summary: \d+ checks in [\d.]+ s: [1-9]\d* FAIL, .*$/m);
  expect(run.stdout).not.toContain('ERROR');
  expect(conformanceErrors(run.report)).toEqual([]);
  for (const secret of secretsOf(server)) expect(run.json).not.toContain(secret);
};

describe.concurrent('a target answering JSON nested thousands of levels deep', SIDE_BY_SIDE, () => {
  it('from the token endpoint, 5,000 levels in every field: the token checks FAIL, quoting it cut short', async () => {
    const field = nested(5_000);
    const run = await runAnswering(
      isTokenRequest,
      `{"access_token":${field},"token_type":${field},"expires_in":${field}}`,
    );
    expectVerdicts(run);
    const cut = `${'['.repeat(8)}[…]${']'.repeat(8)}`;
    expect(run.stdout).toMatch(/^FAIL +AUTH-TOKEN-SCHEMA .*\/access_token must be string/m);
    expect(run.stdout).toContain(`token_type is ${cut}, not "Bearer"`);
    expect(run.stdout).toContain(`expires_in is ${cut}, not the integer`);
  });

  it('from the token endpoint, 100,000 levels: a body over the bound, FAILed unread', async () => {
    const run = await runAnswering(isTokenRequest, nested(100_000));
    expectVerdicts(run);
    expect(run.stdout).toMatch(/^FAIL +AUTH-TOKEN-SCHEMA .*over 65536 bytes/m);
  });

  it.each([5_000, 100_000])('from every API endpoint, %i levels: verdicts on the API', async (depth) => {
    const run = await runAnswering((req) => req.method !== 'HEAD' && !isTokenRequest(req), nested(depth));
    expectVerdicts(run);
  });
});
