// Every artifact of a run against a target that echoes back whatever secret it is sent, and issues tokens as large
// as a body can hold, is searched for every secret the run was given: none may be there.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EchoServer, startSecretsEcho, TOKEN_PATH } from '../support/secrets-echo.ts';
import { harness, tmp } from './run.ts';

const ENV = {
  SECRET_PRIMARY: 'cs-primary-0123456789abcdef',
  SECRET_SAME_TENANT: 'p@ss w/rd+&"same"',
  SECRET_RESTRICTED: 'cs-restricted-9876543210',
  SECRET_OTHER_TENANT: 'cs-other-tenant-ABCDEFGHIJ',
  API_KEY: 'api-key-value-5550123',
  EXECUTION_ID: 'exec-id-from-env-4242',
};

/** Even the target's URL comes from the environment: every value from a reference is a secret. */
const PROFILE = `
base_url: \${BASE_URL}
auth_url: \${BASE_URL}${TOKEN_PATH}
tenant: acme
clients:
  primary:      { client_id: app-1, client_secret: \${SECRET_PRIMARY} }
  same_tenant:  { client_id: app-2, client_secret: \${SECRET_SAME_TENANT} }
  restricted:   { client_id: app-3, client_secret: \${SECRET_RESTRICTED}, lacks: ["POST /api/rules/rerun"] }
  other_tenant: { client_id: app-4, client_secret: \${SECRET_OTHER_TENANT}, tenant: globex }
requests:
  "GET /api/rules/schedule": { query: { date: "2026-11-21" }, headers: { x-api-key: \${API_KEY} } }
  "POST /api/rules/rerun": { headers: { x-api-key: \${API_KEY} } }
ids:
  execution_id: { value: \${EXECUTION_ID} }
side_effects: allow
`;

/** The token and bearer checks (AUTH-FORBIDDEN sends the key header), and one that sends the execution id. */
const ONLY = 'token,bearer,ENDPOINT-GET-API-RULES-STATUS-EXECUTION-ID';

/** Every file under `dir`, as text. */
const filesUnder = (dir: string): Map<string, string> => {
  const files = new Map<string, string>();
  for (const name of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    const path = join(dir, name);
    if (statSync(path).isFile()) files.set(path, readFileSync(path, 'utf8'));
  }
  return files;
};

/** `name: secret` for each secret found in any of the texts, in any of the forms it takes on the wire. */
const secretsIn = (texts: Map<string, string>, secrets: Record<string, string>): string[] =>
  Object.entries(secrets).flatMap(([name, secret]) =>
    [...texts]
      .filter(([, text]) =>
        [secret, encodeURIComponent(secret), JSON.stringify(secret).slice(1, -1)].some((form) =>
          text.includes(form),
        ),
      )
      .map(([file]) => `${name} in ${file}`),
  );

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
