import type { KeyObject } from 'node:crypto';
import { generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { redactProfile, sealArchive } from '../../src/certify/manifest.ts';
import { tarGz } from '../../src/certify/tar.ts';
import { MAX_HELD_BYTES, verifyArchive as verifySource } from '../../src/certify/verify.ts';
import { parseProfile } from '../../src/profile/read.ts';
import type { Profile } from '../../src/spec/index.ts';
import { harness, tmp } from '../cli/run.ts';
import { AT, BODY, FILES } from './fixture.ts';
import { untarGz } from './untar.ts';

const keys = () => generateKeyPairSync('ed25519');
const { privateKey, publicKey } = keys();

const { archive } = sealArchive(BODY, FILES, privateKey, AT);
const entries = await untarGz(archive);
const verifyArchive = (gzipped: Buffer, key: KeyObject) => verifySource([gzipped], key);

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
  it('accepts the archive as sealed, with its manifest', async () => {
    const result = await verifyArchive(archive, publicKey);
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.manifest.files.map((f) => f.path)).toEqual(FILES.map((f) => f.path));
  });

  const positions = { first: () => 0, middle: (n: number) => Math.floor(n / 2), last: (n: number) => n - 1 };
  for (const path of entries.map((e) => e.path)) {
    for (const [where, at] of Object.entries(positions)) {
      it(`fails when the ${where} byte of ${path} changes, naming it`, async () => {
        const result = await verifyArchive(tampered(path, at), publicKey);
        expect(result.ok).toBe(false);
        // A changed manifest or signature breaks the signature; any other file its hash.
        const named = path.startsWith('manifest.json') ? 'manifest.json' : path;
        if (!result.ok) expect(result.mismatch.startsWith(`${named}: `)).toBe(true);
      });
    }
  }

  it('fails on a file added, a file removed, or another key', async () => {
    const added = await verifyArchive(
      tarGz([...entries, { path: 'extra.txt', data: Buffer.from('x') }], AT),
      publicKey,
    );
    expect(added).toEqual({ ok: false, mismatch: 'extra.txt: in the archive, not in the manifest' });
    const removed = await verifyArchive(
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
    const other = await verifyArchive(archive, keys().publicKey);
    expect(other.ok).toBe(false);
    if (!other.ok) expect(other.mismatch).toMatch(/^manifest\.json: the signature .* does not match/);
  });
});

describe('verifyArchive, as the archive streams', () => {
  const [manifest, signature, ...files] = entries;
  const tar = (...list: typeof entries) => gunzipSync(tarGz(list, AT));

  it('needs the manifest first and its signature second, where harness writes them', async () => {
    expect(
      await verifyArchive(tarGz([files[0]!, manifest!, signature!, ...files.slice(1)], AT), publicKey),
    ).toEqual({
      ok: false,
      mismatch: 'manifest.json: not the first file of the archive, where harness writes it (SPEC.md is)',
    });
    expect(await verifyArchive(tarGz([manifest!, ...files, signature!], AT), publicKey)).toEqual({
      ok: false,
      mismatch: 'manifest.json.sig: not the second file of the archive, where harness writes it (SPEC.md is)',
    });
    expect(await verifyArchive(tarGz([manifest!], AT), publicKey)).toEqual({
      ok: false,
      mismatch: 'manifest.json.sig: missing from the archive',
    });
  });

  it(`holds no manifest larger than ${MAX_HELD_BYTES} bytes`, async () => {
    const large = { path: 'manifest.json', data: Buffer.alloc(MAX_HELD_BYTES + 1, 0x20) };
    expect(await verifyArchive(tarGz([large, signature!, ...files], AT), publicKey)).toEqual({
      ok: false,
      mismatch: `manifest.json: ${MAX_HELD_BYTES + 1} bytes, far more than harness writes (verify reads ${MAX_HELD_BYTES})`,
    });
  });

  it('stops reading at a file the manifest does not list: 8 MiB after it are never read', async () => {
    const extra = { path: 'extra.bin', data: randomBytes(8 * 1024 * 1024) };
    const gzipped = gzipSync(tar(manifest!, signature!, extra, ...files), { level: 1 });
    let read = 0;
    async function* pieces() {
      for (let at = 0; at < gzipped.length; at += 16 * 1024) {
        const piece = gzipped.subarray(at, at + 16 * 1024);
        read += piece.length;
        yield piece;
      }
    }
    expect(await verifySource(pieces(), publicKey)).toEqual({
      ok: false,
      mismatch: 'extra.bin: in the archive, not in the manifest',
    });
    expect(gzipped.length).toBeGreaterThan(8 * 1024 * 1024);
    expect(read).toBeLessThan(1024 * 1024);
  });
});

/** The manifest as sealed, to change into one harness never writes. */
const sealedManifest = JSON.parse(entries[0]!.data.toString('utf8'));

/**
 * An archive whose manifest is `manifest` (an object, or the text itself), signed with the key as certify signs
 * one: what a key holder's mistake, a bug or another tool could seal.
 */
const signedWith = (manifest: unknown, files: typeof FILES = FILES) => {
  const bytes = Buffer.from(
    typeof manifest === 'string' ? manifest : `${JSON.stringify(manifest, null, 2)}\n`,
  );
  const signature = Buffer.from(`${sign(null, bytes, privateKey).toString('base64')}\n`);
  return tarGz(
    [{ path: 'manifest.json', data: bytes }, { path: 'manifest.json.sig', data: signature }, ...files],
    AT,
  );
};

const refusedWith = (mismatch: string) => ({ ok: false, mismatch: `manifest.json: ${mismatch}` });

describe('verifyArchive, on a signed manifest harness would not write', () => {
  it('verifies the manifest as sealed, signed again the same way', async () => {
    expect((await verifyArchive(signedWith(sealedManifest), publicKey)).ok).toBe(true);
  });

  it('refuses one of another shape as a mismatch naming the field, never an exception', async () => {
    const [first, ...rest] = sealedManifest.files;
    const { harness: _harness, ...noHarness } = sealedManifest;
    for (const [manifest, mismatch] of [
      ['{"format": "harness-certification/1", ', 'signed, but not JSON'],
      ['null', 'format undefined, this harness reads harness-certification/1'],
      [{ ...sealedManifest, files: 'all of them' }, '/files: must be array'],
      [noHarness, '/harness: missing'],
      [{ ...sealedManifest, files: [{ ...first, sha256: 42 }, ...rest] }, '/files/0/sha256: must be string'],
      [{ ...sealedManifest, signed: 'by me' }, '/signed: not a field of a manifest'],
    ] as const) {
      expect(await verifyArchive(signedWith(manifest), publicKey)).toEqual(refusedWith(mismatch));
    }
  });

  it('refuses one that lists no file, or a file twice (which "all N files match" counted twice)', async () => {
    expect(await verifyArchive(signedWith({ ...sealedManifest, files: [] }, []), publicKey)).toEqual(
      refusedWith('/files: lists no file, where every archive holds the reports it certifies'),
    );
    const [spec, ...rest] = sealedManifest.files;
    expect(
      await verifyArchive(signedWith({ ...sealedManifest, files: [spec, spec, ...rest] }), publicKey),
    ).toEqual(refusedWith('/files/1: lists SPEC.md a second time'));
  });
});

describe('harness verify, as a user runs it on a forged archive', () => {
  const dir = tmp();
  const publicPem = join(dir, 'public.pem');
  writeFileSync(publicPem, publicKey.export({ type: 'spki', format: 'pem' }));
  let archives = 0;
  const verify = (archive: Buffer) => {
    const file = join(dir, `archive-${++archives}.tgz`);
    writeFileSync(file, archive);
    return harness(['verify', file, '--public-key', publicPem], {}, 30_000);
  };

  /** Nothing a terminal would act on: no control character but the line ends, no bidirectional override. */
  const inert = (text: string) => expect(text.replaceAll('\n', '')).not.toMatch(/[\p{Cc}\u202a-\u202e]/u);

  it('exits 1 with one line on a manifest of another shape, not 4 with a stack trace', async () => {
    const run = await verify(signedWith({ ...sealedManifest, files: 'all of them' }));
    expect(run).toMatchObject({ status: 1, stderr: '' });
    expect(run.stdout).toBe('verification failed: manifest.json: /files: must be array\n');
  });

  it('prints the control and bidirectional characters of names escaped, in a mismatch or a verified archive', async () => {
    const evil = '\u001b[2J\u202egnp.exe';
    const listed = await verify(
      signedWith({
        ...sealedManifest,
        files: [{ ...sealedManifest.files[0], path: evil }, ...sealedManifest.files],
      }),
    );
    expect(listed.status).toBe(1);
    expect(listed.stdout).toBe(
      'verification failed: \\u001b[2J\\u202egnp.exe: listed in the manifest, missing from the archive\n',
    );
    const added = await verify(tarGz([...entries, { path: 'a\u202etxt.exe', data: Buffer.from('x') }], AT));
    expect(added.stdout).toBe('verification failed: a\\u202etxt.exe: in the archive, not in the manifest\n');
    const target = { ...sealedManifest.target, tenant: 'acme\u001b[1A\u001b[2Kverified' };
    const verified = await verify(signedWith({ ...sealedManifest, target }));
    expect(verified.status).toBe(0);
    expect(verified.stdout).toContain('tenant acme\\u001b[1A\\u001b[2Kverified');
    for (const run of [listed, added, verified]) inert(run.stdout);
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
