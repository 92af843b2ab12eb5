// Every artifact of a run against a target that echoes back whatever secret it is sent, and issues tokens as large
// as a body can hold, is searched for every secret the run was given: none may be there.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type EchoServer,
  ECHO_ENV as ENV,
  filesUnder,
  ECHO_PROFILE as PROFILE,
  secretsIn,
  startSecretsEcho,
} from '../support/secrets-echo.ts';
import { harness, tmp } from './run.ts';

/** The token and bearer checks (AUTH-FORBIDDEN sends the key header), and one that sends the execution id. */
const ONLY = 'token,bearer,ENDPOINT-GET-API-RULES-STATUS-EXECUTION-ID';

describe('a run against a target echoing every secret it receives', () => {
  let server: EchoServer;
  beforeAll(async () => {
    server = await startSecretsEcho();
  });
  afterAll(() => server.close());

  it('writes none of them, nor any token it issued, to stdout, stderr or any report', async () => {
    const dir = tmp();
    const file = join(dir, 'profile.yaml');
    writeFileSync(file, PROFILE);
    const reports = join(dir, 'reports');
    const result = await harness(
      ['conformance', '--profile', file, '--only', ONLY, '--deadline', '40s', '--report-dir', reports],
      { ...ENV, BASE_URL: server.origin },
      90_000,
    );
    expect([0, 1], result.stderr.slice(-2000)).toContain(result.status);
    const texts = filesUnder(reports);
    expect([...texts.keys()].map((f) => f.split('/').at(-1)).sort()).toEqual(
      expect.arrayContaining(['conformance.html', 'conformance.json', 'conformance.md', 'conformance.xml']),
    );
    texts.set('stdout', result.stdout);
    texts.set('stderr', result.stderr);
    expect(server.issued.length).toBeGreaterThan(1);
    const tokens = Object.fromEntries(
      server.issued.map((token, i) => [`token ${i} (${token.length} chars)`, token]),
    );
    expect(secretsIn(texts, { ...ENV, BASE_URL: server.origin, ...tokens })).toEqual([]);
    // The run did send them: the server saw the secret and the key and answered with them.
    expect(texts.get(join(reports, 'conformance.json')) ?? [...texts.values()].join('')).toContain(
      '[REDACTED]',
    );
  });
});
