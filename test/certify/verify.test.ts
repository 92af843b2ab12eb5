import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { type ManifestBody, redactProfile, sealArchive } from '../../src/certify/manifest.ts';
import { tarGz, untarGz } from '../../src/certify/tar.ts';
import { verifyArchive } from '../../src/certify/verify.ts';
import { parseProfile } from '../../src/profile/load.ts';
import type { Profile } from '../../src/spec/index.ts';

const keys = () => generateKeyPairSync('ed25519');
const { privateKey, publicKey } = keys();
const AT = new Date('2026-11-21T23:45:12Z');

const BODY: ManifestBody = {
  harness: { version: '0.1.0', commit: 'abc' },
  spec: { path: 'SPEC.md', sha256: 'f'.repeat(64) },
  node: 'v20.20.2',
  k6: 'k6 v2.2.0',
  target: {
    base_url: 'https://api.example.test',
    auth_url: 'https://auth.example.test/t',
    tenant: 'acme',
    embedded: false,
  },
  profile: null,
  startedAt: AT.toISOString(),
  finishedAt: AT.toISOString(),
  certifiable: true,
  notCertifiable: [],
  conformance: { exitCode: 0, summary: 'exit 0' },
  load: { exitCode: 0, summary: 'exit 0' },
};
const FILES = [
  { path: 'SPEC.md', data: Buffer.from('# SPEC\n') },
  { path: 'conformance/conformance.json', data: Buffer.from('{"checks":[]}\n') },
  { path: 'load/load-all.xml', data: Buffer.from('<testsuites/>\n') },
];
const { archive } = sealArchive(BODY, FILES, privateKey, AT);
const entries = untarGz(archive);

/** The archive with one byte of one entry changed, repacked as a tamperer would. */
const tampered = (path: string, at: (length: number) => number) =>
  tarGz(
    entries.map((e) => {
      if (e.path !== path) return e;
      const data = Buffer.from(e.data);
      const i = at(data.length);
      data[i] = data[i]! ^ 0x20;
      return { path, data };
    }),
    AT,
  );

describe('verifyArchive', () => {
  it('accepts the archive as sealed, with its manifest', () => {
    const result = verifyArchive(archive, publicKey);
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.manifest.files.map((f) => f.path)).toEqual(FILES.map((f) => f.path));
  });

  const positions = { first: () => 0, middle: (n: number) => Math.floor(n / 2), last: (n: number) => n - 1 };
  for (const path of entries.map((e) => e.path)) {
    for (const [where, at] of Object.entries(positions)) {
      it(`fails when the ${where} byte of ${path} changes, naming it`, () => {
        const result = verifyArchive(tampered(path, at), publicKey);
        expect(result.ok).toBe(false);
        // A changed manifest or signature breaks the signature; any other file its hash.
        const named = path.startsWith('manifest.json') ? 'manifest.json' : path;
        if (!result.ok) expect(result.mismatch.startsWith(`${named}: `)).toBe(true);
      });
    }
  }

  it('fails on a file added, a file removed, or another key', () => {
    const added = verifyArchive(
      tarGz([...entries, { path: 'extra.txt', data: Buffer.from('x') }], AT),
      publicKey,
    );
    expect(added).toEqual({ ok: false, mismatch: 'extra.txt: in the archive, not in the manifest' });
    const removed = verifyArchive(
      tarGz(
        entries.filter((e) => e.path !== 'SPEC.md'),
        AT,
      ),
      publicKey,
    );
    expect(removed).toEqual({
      ok: false,
      mismatch: 'SPEC.md: listed in the manifest, missing from the archive',
    });
    const other = verifyArchive(archive, keys().publicKey);
    expect(other.ok).toBe(false);
    if (!other.ok) expect(other.mismatch).toMatch(/^manifest\.json: the signature .* does not match/);
  });
});

describe('redactProfile', () => {
  it('drops client secrets and request header values, and keeps the rest', () => {
    const profile: Profile = {
      base_url: 'https://api.example.test',
      auth_url: 'https://auth.example.test/t',
      tenant: 'acme',
      clients: { primary: { client_id: 'app', client_secret: 's3cret' } },
      requests: {
        'GET /api/rules/schedule': { headers: { 'x-api-key': 'k3y' }, query: { date: '2026-01-01' } },
      },
    };
    const text = JSON.stringify(redactProfile(profile));
    expect(text).not.toContain('s3cret');
    expect(text).not.toContain('k3y');
    expect(redactProfile(profile)).toMatchObject({
      clients: { primary: { client_id: 'app' } },
      requests: {
        'GET /api/rules/schedule': { headers: { 'x-api-key': '[REDACTED]' }, query: { date: '2026-01-01' } },
      },
    });
  });

  it('drops every value the profile took from the environment, wherever it sits', () => {
    const text = [
      'base_url: https://api.example.test',
      'auth_url: https://auth.example.test/t',
      'tenant: acme',
      'clients: { primary: { client_id: app, client_secret: ${SECRET} } }',
      'requests: { "GET /api/rules/schedule": { query: { sig: "${SIGNATURE}" } } }',
      'ids: { execution_id: { value: "${EXECUTION_ID}" } }',
      'side_effects: allow',
    ].join('\n');
    const env = { SECRET: 's3cret-value', SIGNATURE: 'sig-from-env-123', EXECUTION_ID: 'exec-from-env-456' };
    const redacted = JSON.stringify(redactProfile(parseProfile(text, 'p.yaml', env)));
    for (const value of Object.values(env)) expect(redacted).not.toContain(value);
    expect(redacted).toContain('"sig":"[REDACTED]"');
  });
});
