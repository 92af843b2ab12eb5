// A probe's reproduction: `harness replay` of the check, its arguments quoted for the shell, then one request by hand.
import { describe, expect, it } from 'vitest';
import type { Evidence } from '../../src/client/index.ts';
import { replayFor } from '../../src/runner/repro.ts';
import type { Profile } from '../../src/spec/index.ts';

const profile = {
  base_url: 'https://api.example.test',
  auth_url: 'https://auth.example.test/oauth2/token',
  tenant: 'acme',
  clients: { primary: { client_id: 'app-1', client_secret: 'not-in-any-output' } },
} as Profile;

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

describe('replayFor', () => {
  it('quotes only the arguments a shell would split or expand', () => {
    const [command] = replayFor(
      'LIMIT-ADMITS-RULES-SCHEDULE',
      ['--profile', "my team's $HOME.yaml"],
      request,
      profile,
    );
    expect(command).toBe(
      `npx --no-install harness replay LIMIT-ADMITS-RULES-SCHEDULE --profile 'my team'\\''s $HOME.yaml'`,
    );
    expect(replayFor('ID', ['--fault', 'no-limit-schedule', '--timeout', '15000'], request, profile)[0]).toBe(
      'npx --no-install harness replay ID --fault no-limit-schedule --timeout 15000',
    );
  });

  it('follows with one request to send by hand, its token and no secret', () => {
    const lines = replayFor('ID', [], request, profile);
    expect(lines.slice(0, 2)).toEqual([
      'npx --no-install harness replay ID',
      '# one request of the burst, by hand:',
    ]);
    expect(lines[2]).toMatch(/^ACCESS_TOKEN=\$\(curl .*client_secret=\$CLIENT_SECRET/);
    expect(lines[3]).toMatch(
      /^curl -sS -i -X GET "https:\/\/api\.example\.test\/api\/rules\/schedule" -H "authorization: Bearer \$ACCESS_TOKEN"$/,
    );
    expect(lines.join('\n')).not.toContain('not-in-any-output');
  });

  it('names no command when the run had no command line (an in-process run)', () => {
    expect(replayFor('ID', undefined, request, profile)[0]).toBe('# one request of the burst, by hand:');
  });
});
