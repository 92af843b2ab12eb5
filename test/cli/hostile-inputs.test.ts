// What a user hands harness that could hurt it: an archive with unsigned data after its end, a gzip bomb or an
// endless gzip stream, a profile with a YAML alias bomb. Each ends quickly with the exit code docs/exit-codes.md
// gives, through the real binary. (A `reports/latest` an artifact cache restored as a folder: latest-folder.test.ts,
// a long file for its k6 run.)
import { generateKeyPairSync } from 'node:crypto';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { sealArchive } from '../../src/certify/manifest.ts';
import { tarGz } from '../../src/certify/tar.ts';
import { MAX_ARCHIVE_BYTES } from '../../src/certify/untar.ts';
import { AT, BODY, FILES } from '../certify/fixture.ts';
import { harness, SIDE_BY_SIDE, tmp } from './run.ts';

const dir = tmp();
const { privateKey, publicKey } = generateKeyPairSync('ed25519');
const publicKeyFile = join(dir, 'signing.pub.pem');
writeFileSync(publicKeyFile, publicKey.export({ type: 'spki', format: 'pem' }));
const signedTar = gunzipSync(sealArchive(BODY, FILES, privateKey, AT).archive);

const archiveFile = (name: string, archive: Buffer): string => {
  const file = join(dir, name);
  writeFileSync(file, archive);
  return file;
};

const verify = async (file: string) => {
  const result = await harness(['verify', file, '--public-key', publicKeyFile], {}, 30_000);
  return { ...result, seconds: result.wallMs / 1000 };
};

// Each test has files of its own, and the runs are short and time nothing but themselves: side by side (run.ts
// keeps to one process per core, and times each from its own start).
describe.concurrent('harness verify, given a hostile archive', SIDE_BY_SIDE, () => {
  it('accepts the archive as signed, padded with zeros as GNU tar pads', async () => {
    const padded = await verify(
      archiveFile('padded.tgz', gzipSync(Buffer.concat([signedTar, Buffer.alloc(8192)]))),
    );
    expect(padded.status, padded.stdout).toBe(0);
  });

  it('exits 1 on a second, unsigned archive after the end-of-archive blocks', async () => {
    const unsigned = gunzipSync(tarGz([{ path: 'SPEC.md', data: Buffer.from('# not the SPEC\n') }], AT));
    const result = await verify(archiveFile('trailing.tgz', gzipSync(Buffer.concat([signedTar, unsigned]))));
    expect(result.status).toBe(1);
    expect(result.stdout).toBe(
      `verification failed: archive: data after the end-of-archive blocks (byte ${signedTar.length}), which tar -i would unpack and no signature covers\n`,
    );
  });

  it('exits 1 on a gzip bomb that unpacks past the bound, quickly', async () => {
    const bomb = gzipSync(Buffer.concat([signedTar, Buffer.alloc(MAX_ARCHIVE_BYTES)]), { level: 9 });
    expect(bomb.length).toBeLessThan(MAX_ARCHIVE_BYTES / 500);
    const result = await verify(archiveFile('bomb.tgz', bomb));
    expect(result.status).toBe(1);
    expect(result.stdout).toBe(
      `verification failed: archive: larger than ${MAX_ARCHIVE_BYTES} bytes unpacked, far more than a harness archive holds (a gzip bomb?)\n`,
    );
    expect(result.seconds).toBeLessThan(10);
  });

  it('exits 1 on a gzip stream that would never end, read no further than the bound', async () => {
    // Empty stored deflate blocks, five bytes each: gzip that unpacks to nothing however long it runs.
    const header = gzipSync(signedTar).subarray(0, 10);
    const blocks = Buffer.alloc(MAX_ARCHIVE_BYTES, Buffer.from([0, 0, 0, 0xff, 0xff]));
    const result = await verify(archiveFile('endless.tgz', Buffer.concat([header, blocks])));
    expect(result.status).toBe(1);
    expect(result.stdout).toBe(
      `verification failed: archive: larger than ${MAX_ARCHIVE_BYTES} bytes gzipped, far more than a harness archive holds\n`,
    );
    expect(result.seconds).toBeLessThan(10);
  });

  it('a missing archive or a folder is bad input: one line naming it, exit 2', async () => {
    for (const [file, code] of [
      [join(dir, 'missing.tgz'), 'ENOENT'],
      [dir, 'EISDIR'],
    ]) {
      const result = await verify(file!);
      expect(result.status).toBe(2);
      expect(result.stderr).toBe(`harness: ${file}: cannot read (${code})\n`);
    }
  });

  it.runIf(existsSync('/dev/zero'))('exits 1 on an endless file of zeros, at its first bytes', async () => {
    const result = await verify('/dev/zero');
    expect(result.status).toBe(1);
    expect(result.stdout).toBe('verification failed: archive: not a gzip file: incorrect header check\n');
    expect(result.seconds).toBeLessThan(10);
  });
});

describe.concurrent('a profile with YAML aliases', SIDE_BY_SIDE, () => {
  const profile = (name: string, text: string) => {
    const file = join(dir, name);
    writeFileSync(file, text);
    return file;
  };
  // A kilobyte that would expand to 10^12 strings.
  const laughs = [
    'a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]',
    ...Array.from({ length: 11 }, (_, i) => `a${i + 1}: &a${i + 1} [${Array(10).fill(`*a${i}`).join(', ')}]`),
  ].join('\n');

  it('an alias bomb is bad input: one line naming the file, exit 2, quickly', async () => {
    const file = profile('bomb.yaml', laughs);
    const result = await harness(['conformance', '--profile', file, '--dry-run'], {}, 30_000);
    expect(result.status, result.stderr).toBe(2);
    expect(result.stderr).toBe(
      `harness: ${file}: not valid YAML or JSON: aliases expanded more than 100 times (an alias bomb?)\n`,
    );
    expect(result.wallMs).toBeLessThan(10_000);
  });

  it('an alias before its anchor is bad input too', async () => {
    const file = profile('unresolved.yaml', 'base_url: *later\ntenant: &later acme\n');
    const result = await harness(['load', '--profile', file], {}, 30_000);
    expect(result.status, result.stderr).toBe(2);
    expect(result.stderr).toBe(
      `harness: ${file}: not valid YAML or JSON: Unresolved alias (the anchor must be set before the alias): later\n`,
    );
  });
});
