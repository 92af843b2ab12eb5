import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { ArchiveError, type TarEntry, tarGz, untarGz } from '../../src/certify/tar.ts';

const dir = mkdtempSync(join(tmpdir(), 'harness-tar-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const LONG = `load/${'x'.repeat(60)}/${'y'.repeat(90)}.json`;
const ENTRIES: TarEntry[] = [
  { path: 'manifest.json', data: Buffer.from('{"a":1}\n') },
  { path: 'conformance/empty.md', data: Buffer.alloc(0) },
  { path: 'conformance/block.bin', data: Buffer.alloc(512, 7) },
  { path: LONG, data: Buffer.from('é😀 unicode\n') },
];
const AT = new Date('2026-11-21T23:45:12Z');

describe('tarGz and untarGz', () => {
  it('read back exactly what was written, in order', () => {
    expect(untarGz(tarGz(ENTRIES, AT))).toEqual(ENTRIES);
  });

  it('write what GNU tar reads: names, sizes, contents', () => {
    const file = join(dir, 'a.tgz');
    writeFileSync(file, tarGz(ENTRIES, AT));
    const listed = execFileSync('tar', ['-tzf', file], { encoding: 'utf8' }).trim().split('\n');
    expect(listed).toEqual(ENTRIES.map((e) => e.path));
    execFileSync('tar', ['-xzf', file, '-C', dir]);
    for (const entry of ENTRIES) expect(readFileSync(join(dir, entry.path))).toEqual(entry.data);
  });

  it('refuse a corrupt header, an unsafe or repeated path, and a file that is not gzip', () => {
    const tar = gunzipSync(tarGz(ENTRIES, AT));
    tar[0] = tar[0]! ^ 1;
    expect(() => untarGz(gzipSync(tar))).toThrow(/header checksum mismatch/);
    expect(() => untarGz(tarGz([{ path: '../escape', data: Buffer.alloc(1) }], AT))).toThrow(/unsafe path/);
    expect(() => untarGz(tarGz([ENTRIES[0]!, ENTRIES[0]!], AT))).toThrow(/appears twice/);
    expect(() => untarGz(Buffer.from('not gzip'))).toThrow(ArchiveError);
    expect(() => untarGz(gzipSync(tar.subarray(0, 512)))).toThrow(ArchiveError);
  });
});
