// What `harness load` writes (k6's summaries, both HTML reports, the JUnit file) and prints holds none of the
// profile's secrets: client secrets, the target's URL, a credential header and a query value taken from the
// environment, and the tokens the server issued.
import { readdirSync, readFileSync, realpathSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { startReferenceServer } from '../../src/reference/index.ts';
import { harness, secretsOf, tmp } from '../cli/run.ts';
import { expectNoFail } from './run-load.ts';

const ENV = { API_KEY: 'load-api-key-6d1f0c', SIGNATURE: 'load-query-signature-93ab27' };

describe('harness load and the secrets of its profile', () => {
  it('writes and prints none of them', { timeout: 120_000 }, async () => {
    const reference = await startReferenceServer({
      minuteMs: 2000,
      limits: { 'transaction-event': { count: 100, per: 'second' } },
    });
    try {
      const profile = structuredClone(reference.profile());
      const origin = profile.base_url;
      const env: Record<string, string> = { ...ENV, BASE_URL: origin };
      profile.base_url = '${BASE_URL}';
      profile.auth_url = profile.auth_url.replace(origin, '${BASE_URL}');
      for (const [role, client] of Object.entries(profile.clients)) {
        env[`SECRET_${role.toUpperCase()}`] = client.client_secret;
        client.client_secret = `\${SECRET_${role.toUpperCase()}}`;
      }
      profile.requests = {
        ...profile.requests,
        'POST /event/transaction/v3': {
          ...profile.requests?.['POST /event/transaction/v3'],
          headers: { 'x-api-key': '${API_KEY}' },
          query: { sig: '${SIGNATURE}' },
        },
      };
      const dir = tmp();
      const file = join(dir, 'profile.yaml');
      writeFileSync(file, stringify(profile));
      const reports = join(dir, 'reports');
      const args = ['load', '--profile', file, '--scenario', 'transactions', '--duration', '3s'];
      const result = await harness([...args, '--report-dir', reports], env);
      expectNoFail(result);
      const latest = realpathSync(join(reports, 'latest'));
      const texts = [
        // The reports and each runner's summary (runners/runner-1.json).
        ...readdirSync(latest, { recursive: true, encoding: 'utf8' })
          .filter((name) => statSync(join(latest, name)).isFile())
          .map((name) => readFileSync(join(latest, name), 'utf8')),
        result.stdout,
        result.stderr,
      ];
      expect(texts.length).toBeGreaterThanOrEqual(6);
      const secrets = [...Object.values(env), ...secretsOf(reference)];
      expect(secretsOf(reference).length).toBeGreaterThan(4);
      expect(secrets.filter((secret) => texts.some((text) => text.includes(secret)))).toEqual([]);
    } finally {
      await reference.close();
    }
  });
});
