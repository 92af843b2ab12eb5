import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/errors.ts';
import { parseProfile } from '../../src/profile/read.ts';
import { profileSecrets, warnOfPlainTextSecrets } from '../../src/profile/secrets.ts';

const profileText = (fields: { base?: string; primary?: string; headers?: string }) => `
base_url: ${fields.base ?? 'http://127.0.0.1:8080'}
auth_url: http://127.0.0.1:8080/oauth2/token
tenant: acme
clients:
  primary: ${fields.primary ?? '{ client_id: app-1, client_secret: ${CLIENT_SECRET} }'}
requests:
  "GET /api/rules/schedule": { query: { date: "\${DAY}" }, headers: ${fields.headers ?? '{ accept: application/json }'} }
`;
const env = {
  CLIENT_SECRET: 'from-env-secret',
  DAY: '2026-11-21',
  API_KEY: 'from-env-api-key',
  PASSWORD: 'pw-9',
};

/** The profile, and what it warns of as a run starts (each line once per process: every test has its own). */
const parse = (text: string, source = 'p.yaml') => {
  const profile = parseProfile(text, source, env);
  const warnings: string[] = [];
  warnOfPlainTextSecrets(profile, (line) => warnings.push(line.text));
  warnOfPlainTextSecrets({ ...profile }, (line) => warnings.push(line.text));
  return { profile, warnings };
};

describe('the secrets of a profile', () => {
  it('are every ${VAR} value, every client secret and every credential header, whatever copies are made', () => {
    const { profile, warnings } = parse(
      profileText({
        headers: '{ x-api-key: "${API_KEY}", authorization: "Basic abc123", accept: text/plain }',
      }),
    );
    const copy = { ...profile, base_url: 'http://127.0.0.1:9' };
    expect(profileSecrets(copy).sort()).toEqual(
      ['from-env-secret', '2026-11-21', 'from-env-api-key', 'Basic abc123'].sort(),
    );
    // Reports and k6's environment are JSON: the list never travels with the profile.
    expect(JSON.stringify(copy)).not.toContain('from-env-secret"]');
    expect(warnings).toEqual([
      'harness: warning: p.yaml: /requests/GET ~1api~1rules~1schedule/headers/authorization: a secret written in the profile itself; take it from the environment (${VAR}) so it stays out of files',
    ]);
  });

  it('written in plain text give one warning line naming each, never quoting one', () => {
    const { warnings } = parse(
      profileText({
        primary: '{ client_id: app-1, client_secret: plain-secret }',
        headers: '{ x-api-key: plain-key }',
      }),
    );
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(
      '/clients/primary/client_secret, /requests/GET ~1api~1rules~1schedule/headers/x-api-key',
    );
    expect(warnings[0]).not.toMatch(/plain-secret|plain-key/);
    expect(parse(profileText({})).warnings).toEqual([]);
  });

  it("are warned of with the file's name escaped: its controls are shown, not obeyed", () => {
    const { warnings } = parse(
      profileText({ primary: '{ client_id: app-1, client_secret: plain-secret }' }),
      'p\u009b2J\u202e.yaml',
    );
    expect(warnings).toEqual([
      expect.stringContaining('harness: warning: p\\u009b2J\\u202e.yaml: /clients/primary'),
    ]);
  });

  it.each([
    ['base_url', 'http://user:${PASSWORD}@127.0.0.1:8080'],
    ['base_url', 'http://pw-9@127.0.0.1:8080'],
  ])('refuse a user name or password in %s with exit 2, naming the field and not the value', (field, url) => {
    let error: unknown;
    try {
      parse(profileText({ base: url }));
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(InputError);
    expect((error as Error).message).toMatch(
      new RegExp(`^p\\.yaml: /${field}: holds a user name or password`),
    );
    expect((error as Error).message).not.toContain('pw-9');
  });

  it('stay out of the message when the profile is refused for a field that quotes one', () => {
    const other = profileText({
      primary:
        '{ client_id: a, client_secret: ${CLIENT_SECRET} }\n  other_tenant: { client_id: o, client_secret: ${CLIENT_SECRET}, tenant: tenant-from-env }',
    }).replace('tenant: acme', 'tenant: ${TENANT}');
    expect(() => parseProfile(other, 'p.yaml', { ...env, TENANT: 'tenant-from-env' })).toThrow(
      "p.yaml: /clients/other_tenant/tenant: must differ from the profile's tenant '[REDACTED]'",
    );
  });
});
