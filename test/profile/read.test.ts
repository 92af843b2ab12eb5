import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/errors.ts';
import { loadProfile, MAX_PROFILE_BYTES, parseProfile } from '../../src/profile/read.ts';
import { profileSecrets, variableAt } from '../../src/profile/secrets.ts';

const VALID = `
base_url: http://127.0.0.1:8080
auth_url: http://127.0.0.1:8080/oauth2/token
tenant: acme
clients:
  primary:      { client_id: \${CLIENT_ID}, client_secret: \${CLIENT_SECRET} }
  restricted:   { client_id: r, client_secret: rs, lacks: ["POST /api/rules/rerun"] }
  other_tenant: { client_id: o, client_secret: os, tenant: globex }
observability:
  - GET /api/observability/transaction-summary
requests:
  "POST /event/transaction/v3": { body: { amount: 1 } }
  "GET /api/rules/schedule": { query: { date: "2026-11-21" } }
ids:
  batch_id:     { from: "POST /api/transactions/batch/generate-upload-url", pointer: /batch_id }
  execution_id: { value: exec-1 }
side_effects: deny
limits: { transaction-event: { count: 430, per: second } }
`;
const env = { CLIENT_ID: 'app-1', CLIENT_SECRET: 's3cr#t: "quoted"' };

const usageError = (run: () => unknown): string => {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).message).not.toContain('\n');
    return (error as InputError).message;
  }
  throw new Error('expected an InputError');
};

describe('profile loader', () => {
  it('loads YAML with ${ENV} references resolved, secrets kept verbatim', () => {
    const profile = parseProfile(VALID, 'p.yaml', env);
    expect(profile.clients.primary).toEqual({ client_id: 'app-1', client_secret: 's3cr#t: "quoted"' });
    expect(profile.requests?.['GET /api/rules/schedule']?.query).toEqual({ date: '2026-11-21' });
    expect(profile.side_effects).toBe('deny');
  });

  it("keeps each ${VAR}'s name with its value: a field written as one reference alone is named by it", () => {
    const profile = parseProfile(
      VALID.replace(
        'requests:\n',
        'requests:\n  "POST /api/rules/execute": { headers: { x-api-key: "key-${CLIENT_ID}" } }\n',
      ),
      'p.yaml',
      env,
    );
    expect(variableAt(profile, '/clients/primary/client_id')).toBe('CLIENT_ID');
    expect(variableAt(profile, '/clients/primary/client_secret')).toBe('CLIENT_SECRET');
    // Inline, or text around the reference: no variable holds the field's value.
    expect(variableAt(profile, '/clients/restricted/client_secret')).toBeUndefined();
    expect(variableAt(profile, '/requests/POST ~1api~1rules~1execute/headers/x-api-key')).toBeUndefined();
    // A copy, as the network flags make one, keeps them; the values stay secrets to redact.
    expect(variableAt({ ...profile }, '/clients/primary/client_secret')).toBe('CLIENT_SECRET');
    expect(profileSecrets(profile)).toEqual(expect.arrayContaining([env.CLIENT_SECRET, env.CLIENT_ID]));
  });

  it('loads the same profile written as JSON from a file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'harness-profile-'));
    const file = join(dir, 'p.json');
    const json = JSON.stringify({
      base_url: 'http://127.0.0.1:1',
      auth_url: 'http://127.0.0.1:1/t',
      tenant: 'acme',
      clients: { primary: { client_id: 'a', client_secret: '${CLIENT_SECRET}' } },
    });
    writeFileSync(file, json);
    expect(loadProfile(file, env).clients.primary.client_secret).toBe(env.CLIENT_SECRET);
  });

  it('names the variable and the field when an environment variable is missing', () => {
    expect(usageError(() => parseProfile(VALID, 'p.yaml', { CLIENT_ID: 'x' }))).toBe(
      'p.yaml: /clients/primary/client_secret: environment variable CLIENT_SECRET is not set',
    );
  });

  it.each([
    [
      'a missing required field',
      VALID.replace('tenant: acme\n', ''),
      "p.yaml: /: must have required property 'tenant'",
    ],
    ['an unknown field', `${VALID}colour: blue\n`, "p.yaml: /: unknown field 'colour'"],
    [
      'a mistyped field, with the one it is near',
      `${VALID}minute_msec: 2000\n`,
      "p.yaml: /: unknown field 'minute_msec' (did you mean minute_ms?)",
    ],
    [
      'a malformed URL',
      VALID.replace('base_url: http://127.0.0.1:8080', 'base_url: ftp:/x'),
      'p.yaml: /base_url: must be an http(s) URL',
    ],
    [
      'a bad side_effects value',
      VALID.replace('side_effects: deny', 'side_effects: maybe'),
      'p.yaml: /side_effects: must be',
    ],
    [
      'an unknown endpoint in requests',
      VALID.replace('"GET /api/rules/schedule"', '"GET /api/rules/schedul"'),
      "p.yaml: /requests/GET /api/rules/schedul: unknown endpoint 'GET /api/rules/schedul'",
    ],
    [
      'an unknown endpoint in lacks',
      VALID.replace('POST /api/rules/rerun', 'POST /rerun'),
      "p.yaml: /clients/restricted/lacks/0: unknown endpoint 'POST /rerun'",
    ],
    [
      'an unknown limit key',
      VALID.replace('transaction-event:', 'transactions:'),
      'p.yaml: /limits/transactions: not a SPEC.md §8 endpoint key or bucket id',
    ],
    [
      'an id with neither source nor value',
      VALID.replace('{ value: exec-1 }', '{ pointer: /x }'),
      'p.yaml: /ids/execution_id: must',
    ],
    [
      'an id taken from an endpoint that needs it',
      VALID.replace(
        '"POST /api/transactions/batch/generate-upload-url"',
        '"GET /api/transactions/batch/status/{batch_id}"',
      ),
      'p.yaml: /ids/batch_id/from: GET /api/transactions/batch/status/{batch_id} needs batch_id itself: the ids form a loop',
    ],
    [
      'two ids taken from each other',
      VALID.replace(
        '"POST /api/transactions/batch/generate-upload-url"',
        '"GET /api/rules/status/{execution_id}"',
      ).replace(
        '{ value: exec-1 }',
        '{ from: "GET /api/transactions/batch/status/{batch_id}", pointer: /id }',
      ),
      'p.yaml: /ids/batch_id/from: GET /api/rules/status/{execution_id} needs batch_id itself: the ids form a loop',
    ],
    [
      'the other tenant equal to the tenant',
      VALID.replace('tenant: globex', 'tenant: acme'),
      "p.yaml: /clients/other_tenant/tenant: must differ from the profile's tenant 'acme'",
    ],
    [
      'a spec endpoint listed as observability',
      VALID.replace('GET /api/observability/transaction-summary', 'GET /api/rules/schedule'),
      'p.yaml: /observability/0: GET /api/rules/schedule is a SPEC.md §4 endpoint',
    ],
    ['broken YAML', 'base_url: [unclosed', 'p.yaml: not valid YAML or JSON'],
  ])('rejects %s with one line naming the field', (_name, text, expected) => {
    expect(usageError(() => parseProfile(text, 'p.yaml', env))).toContain(expected);
  });

  describe('side_effects off loopback', () => {
    const at = (url: string, sideEffects = '') =>
      VALID.replace('side_effects: deny\n', sideEffects)
        .replace('base_url: http://127.0.0.1:8080', `base_url: ${url}`)
        .replace('auth_url: http://127.0.0.1:8080/oauth2/token', `auth_url: ${url}/oauth2/token`);

    it('stops a profile for a remote target that does not state it, naming the field and the four acting endpoints', () => {
      const message = usageError(() => parseProfile(at('https://staging.example.test'), 'p.yaml', env));
      expect(message).toBe(
        'p.yaml: /side_effects: required when base_url is not on loopback (staging.example.test): allow, deny, ' +
          'or the list of endpoints harness may call among the four that act (POST /event/transaction/v3, ' +
          'POST /api/rules/rerun, POST /api/transactions/batch/generate-upload-url, POST /api/rules/execute); ' +
          'on the command line, --side-effects',
      );
    });

    it.each([
      'http://192.0.2.8:8080',
      'http://[2001:db8::1]',
      'http://127.example.test',
      'http://localhost.example.test',
    ])('counts %s as remote', (url) => {
      expect(usageError(() => parseProfile(at(url), 'p.yaml', env))).toContain('/side_effects: required');
    });

    it.each([
      'http://127.0.0.1:1',
      'http://127.9.8.7',
      'http://[::1]:8080',
      'http://[::ffff:127.0.0.1]',
      'http://localhost:3000',
    ])('lets a loopback target %s leave it out (SPEC.md endpoints are then all allowed)', (url) => {
      expect(parseProfile(at(url), 'p.yaml', env).side_effects).toBeUndefined();
    });

    it.each(['allow', 'deny', '["POST /api/rules/execute"]'])(
      'accepts a remote target stating %s',
      (value) => {
        const profile = parseProfile(
          at('https://staging.example.test', `side_effects: ${value}\n`),
          'p.yaml',
          env,
        );
        expect(profile.side_effects).toBeDefined();
      },
    );
  });

  it('names the --profile flag when the file cannot be read', () => {
    expect(usageError(() => loadProfile('/nonexistent/p.yaml', env))).toBe(
      '--profile /nonexistent/p.yaml: cannot read: ENOENT',
    );
  });

  it('parses a profile as large as the cap, with thousands of keys, in linear time', () => {
    // 20k keys took 42 s when the parser compared every pair of keys; one pass takes about a second here.
    const lines = [VALID.trim(), 'extra:'];
    for (let i = 0, size = VALID.length; size < MAX_PROFILE_BYTES - 32; i++) {
      lines.push(`  k${i}: 1`);
      size += lines.at(-1)!.length + 1;
    }
    expect(lines.length).toBeGreaterThan(20_000);
    const started = performance.now();
    expect(usageError(() => parseProfile(lines.join('\n'), 'p.yaml', env))).toBe(
      "p.yaml: /: unknown field 'extra'",
    );
    expect(performance.now() - started).toBeLessThan(10_000);
  });

  it('finds a key given twice in one mapping, naming it', () => {
    expect(usageError(() => parseProfile(`${VALID}tenant: globex\n`, 'p.yaml', env))).toBe(
      "p.yaml: not valid YAML or JSON: the key 'tenant' appears twice in one mapping",
    );
  });
});
