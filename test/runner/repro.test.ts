// Reproductions: `harness replay` of a probe's check, its arguments quoted for the shell, then one request by hand;
// every secret a shell variable, the profile's own ${VAR} or one named for its client (or its header), never
// `[REDACTED]`, never the value.
import { describe, expect, it } from 'vitest';
import type { Evidence } from '../../src/client/index.ts';
import { profileRedactor, withSecretOrigins } from '../../src/profile/secrets.ts';
import { type ReproContext, replayFor, reproFor, type Sent } from '../../src/runner/repro.ts';
import type { Profile } from '../../src/spec/index.ts';

const profile = {
  base_url: 'https://api.example.test',
  auth_url: 'https://auth.example.test/oauth2/token',
  tenant: 'acme',
  clients: {
    primary: { client_id: 'app-1', client_secret: 'not-in-any-output' },
    restricted: { client_id: 'app-r', client_secret: 'restricted-not-in-any-output', lacks: [] },
    other_tenant: { client_id: 'app-g', client_secret: 'other-not-in-any-output', tenant: 'globex' },
  },
} as Profile;

const contextOf = (p: Profile): ReproContext => {
  const redactor = profileRedactor(p);
  return { profile: p, hide: (text) => redactor.known(text) };
};
const context = contextOf(profile);

const request: Evidence = {
  label: 'spend #1',
  request: {
    method: 'GET',
    url: 'https://api.example.test/api/rules/schedule',
    headers: { authorization: 'Bearer eyJh…(sha256:3f1c0d9a7b2e)' },
  },
  response: { status: 200, headers: {} },
  startedAt: '2026-11-24T16:00:00.000Z',
  durationMs: 12,
};
const primary = { evidence: request, client: 'primary' } as const;

const tokenRequest = (body: string): Evidence => ({
  request: {
    method: 'POST',
    url: profile.auth_url,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body,
  },
  startedAt: '2026-11-24T16:00:00.000Z',
  durationMs: 3,
});

describe('replayFor', () => {
  it('quotes only the arguments a shell would split or expand', () => {
    const [command] = replayFor(
      'LIMIT-ADMITS-RULES-SCHEDULE',
      ['--profile', "my team's $HOME.yaml"],
      primary,
      context,
    );
    expect(command).toBe(
      `npx --no-install harness replay LIMIT-ADMITS-RULES-SCHEDULE --profile 'my team'\\''s $HOME.yaml'`,
    );
    expect(replayFor('ID', ['--fault', 'no-limit-schedule', '--timeout', '15000'], primary, context)[0]).toBe(
      'npx --no-install harness replay ID --fault no-limit-schedule --timeout 15000',
    );
  });

  it('follows with one request to send by hand, its token and no secret', () => {
    const lines = replayFor('ID', [], primary, context);
    expect(lines.slice(0, 2)).toEqual([
      'npx --no-install harness replay ID',
      '# one request of the burst, by hand:',
    ]);
    expect(lines[2]).toMatch(/^ACCESS_TOKEN=\$\(curl .*client_id=app-1&client_secret=\$CLIENT_SECRET/);
    expect(lines[3]).toMatch(
      /^curl -sS -i -X GET "https:\/\/api\.example\.test\/api\/rules\/schedule" -H "authorization: Bearer \$ACCESS_TOKEN"$/,
    );
    expect(lines.join('\n')).not.toContain('not-in-any-output');
  });

  it('names no command when the run had no command line (an in-process run)', () => {
    expect(replayFor('ID', undefined, primary, context)[0]).toBe('# one request of the burst, by hand:');
  });
});

describe('reproFor', () => {
  it("gets the token of the client the check used, with that client's own variable and tenant", () => {
    const [token] = reproFor([{ evidence: request, client: 'restricted' }], context);
    expect(token).toContain('client_id=app-r&client_secret=$RESTRICTED_CLIENT_SECRET&scope=tenant%2Facme');
    const [other] = reproFor([{ evidence: request, client: 'other_tenant' }], context);
    expect(other).toContain(
      'client_id=app-g&client_secret=$OTHER_TENANT_CLIENT_SECRET&scope=tenant%2Fglobex',
    );
  });

  it("names a client's redacted id and secret by that client, in a form or JSON body", () => {
    const [form] = reproFor(
      [
        {
          evidence: tokenRequest(
            'grant_type=client_credentials&client_id=[REDACTED]&client_secret=[REDACTED]',
          ),
          client: 'restricted',
        },
      ],
      context,
    );
    expect(form).toContain(
      '--data-raw "grant_type=client_credentials&client_id=$RESTRICTED_CLIENT_ID&client_secret=$RESTRICTED_CLIENT_SECRET"',
    );
    const [json] = reproFor(
      [
        {
          evidence: tokenRequest('{"client_id":"[REDACTED]","client_secret":"[REDACTED]"}'),
          client: 'primary',
        },
      ],
      context,
    );
    expect(json).toContain(
      '--data-raw "{\\"client_id\\":\\"$CLIENT_ID\\",\\"client_secret\\":\\"$CLIENT_SECRET\\"}"',
    );
  });

  it('shows no [REDACTED] in a command: an id the run hides is a variable in the token request too', () => {
    const hiddenId = {
      ...profile,
      clients: { primary: { client_id: 'app-from-the-environment', client_secret: 'not-in-any-output' } },
    } as Profile;
    // The run hides the id as it hides any value a profile takes from ${VAR}.
    const redactor = profileRedactor(hiddenId);
    redactor.addSecret('app-from-the-environment');
    const lines = reproFor([primary], { profile: hiddenId, hide: (text) => redactor.known(text) });
    expect(lines[0]).toContain('client_id=$CLIENT_ID&client_secret=$CLIENT_SECRET&');
    expect(lines.join('\n')).not.toMatch(/REDACTED|app-from-the-environment|not-in-any-output/);
  });

  it('names a credential header by its name, braced where text follows, and expands nothing a target sent', () => {
    const [command] = reproFor(
      [
        {
          evidence: {
            ...request,
            request: {
              method: 'GET',
              url: 'https://api.example.test/api/rules/status/$HOME`id`$(id)',
              headers: { 'x-api-key': '[REDACTED]v2' },
            },
          },
          client: 'primary',
        },
      ],
      context,
    );
    expect(command).toBe(
      'curl -sS -i -X GET "https://api.example.test/api/rules/status/\\$HOME\\`id\\`\\$(id)" -H "x-api-key: ${X_API_KEY}v2"',
    );
  });
});

describe("reproFor, with the profile's own ${VAR} names", () => {
  /** `profile` as the loader gives it when it reads `field` (a JSON pointer) as `${name}` whole, or inside text. */
  const writtenAs = (p: Profile, variables: readonly [string, string, string, boolean?][]): Profile =>
    withSecretOrigins(p, {
      fromEnvironment: variables.map(([pointer, name, value, whole = true]) => ({
        name,
        value,
        pointer,
        whole,
      })),
    });
  const withKey = (key: string): Profile => ({
    ...profile,
    requests: {
      'GET /api/rules/status/{execution_id}': { headers: { 'X-Api-Key': key } },
      'GET /api/rules/schedule': { headers: { 'X-Api-Key': key } },
    },
  });
  const keyed: Sent = {
    evidence: { ...request, request: { ...request.request, headers: { 'x-api-key': '[REDACTED]' } } },
    client: 'primary',
  };

  it("names a client's secret and id by the variables the profile takes them from, in the token request and a form", () => {
    const p = writtenAs(profile, [
      ['/clients/restricted/client_secret', 'R_SECRET', 'restricted-not-in-any-output'],
      ['/clients/restricted/client_id', 'R_ID', 'app-r'],
    ]);
    const [token] = reproFor([{ evidence: request, client: 'restricted' }], contextOf(p));
    expect(token).toContain('client_id=$R_ID&client_secret=$R_SECRET&');
    const [form] = reproFor(
      [
        {
          evidence: tokenRequest('grant_type=x&client_id=[REDACTED]&client_secret=[REDACTED]'),
          client: 'restricted',
        },
      ],
      contextOf(p),
    );
    expect(form).toContain('"grant_type=x&client_id=$R_ID&client_secret=$R_SECRET"');
    // The primary's, written inline, keeps its documented names.
    const [primaryToken] = reproFor([primary], contextOf(p));
    expect(primaryToken).toContain('client_id=app-1&client_secret=$CLIENT_SECRET&');
  });

  it('keeps the documented name for a secret only part of whose field is the variable', () => {
    const p = writtenAs(profile, [['/clients/primary/client_secret', 'PART', 'in-any-output', false]]);
    expect(reproFor([primary], contextOf(p))[0]).toContain('client_secret=$CLIENT_SECRET&');
  });

  it('names a credential header by its variable where every request writes it as that one', () => {
    const pointer = (key: string) => `/requests/${key.replaceAll('/', '~1')}/headers/X-Api-Key`;
    const both = writtenAs(withKey('${API_KEY}'), [
      [pointer('GET /api/rules/status/{execution_id}'), 'API_KEY', 'key-value'],
      [pointer('GET /api/rules/schedule'), 'API_KEY', 'key-value'],
    ]);
    expect(reproFor([keyed], contextOf(both))[0]).toContain('-H "x-api-key: $API_KEY"');
    // One request writes it inline: the value sent may be either, so the documented name stands.
    const one = writtenAs(withKey('${API_KEY}'), [
      [pointer('GET /api/rules/schedule'), 'API_KEY', 'key-value'],
    ]);
    expect(reproFor([keyed], contextOf(one))[0]).toContain('-H "x-api-key: $X_API_KEY"');
  });
});

describe('reproFor of a token used more than once', () => {
  const at = (ms: number) => new Date(Date.parse('2026-11-24T16:00:00.000Z') + ms).toISOString();
  const call = (url: string, ms: number): Evidence => ({
    ...request,
    request: { ...request.request, url },
    startedAt: at(ms),
  });
  const schedule = 'https://api.example.test/api/rules/schedule';

  it('sends it as the check did: from the request that got it, again on the same request, after the same wait', () => {
    const issued: Evidence = {
      ...tokenRequest('grant_type=client_credentials&client_id=app-1&client_secret=[REDACTED]'),
      response: {
        status: 200,
        headers: {},
        body: '{"access_token":"eyJh…(sha256:3f1c0d9a7b2e)","expires_in":5}',
      },
      startedAt: at(0),
    };
    const lines = reproFor(
      [
        issued,
        call(schedule, 10),
        call('https://api.example.test/api/rules/execute', 20),
        call(schedule, 6500),
      ].map((evidence) => ({ evidence, client: 'primary' as const })),
      context,
    );
    expect(lines).toHaveLength(4);
    expect(lines[0]).toMatch(
      /^ACCESS_TOKEN=\$\(curl -sS -X POST "https:\/\/auth\.example\.test\/oauth2\/token" .*client_secret=\$CLIENT_SECRET" \| sed /,
    );
    expect(lines.slice(1).map((line) => line.replace(/ -H .*/, ''))).toEqual([
      `curl -sS -i -X GET "${schedule}"`,
      'sleep 7',
      `curl -sS -i -X GET "${schedule}"`,
    ]);
  });
});
