import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { ArchiveError, type TarEntry, tarGz, untarGz } from '../../src/certify/tar.ts';
import { editHeader } from './tar-edit.ts';

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

  const one = gunzipSync(tarGz([ENTRIES[0]!], AT));
  const unsigned = gunzipSync(tarGz([{ path: 'unsigned.txt', data: Buffer.from('x') }], AT));

  it('refuse a second archive after the end-of-archive blocks, in the same gzip member or the next', () => {
    const trailing = join(dir, 'trailing.tgz');
    writeFileSync(trailing, gzipSync(Buffer.concat([one, unsigned])));
    // What makes it matter: GNU tar unpacks the second archive when told to read past zero blocks.
    expect(execFileSync('tar', ['-tizf', trailing], { encoding: 'utf8' })).toContain('unsigned.txt');
    const after = /data after the end-of-archive blocks \(byte 2048\)/;
    expect(() => untarGz(readFileSync(trailing))).toThrow(after);
    expect(() => untarGz(Buffer.concat([gzipSync(one), gzipSync(unsigned)]))).toThrow(after);
    expect(() => untarGz(gzipSync(Buffer.concat([one, Buffer.alloc(4096), Buffer.from([1])])))).toThrow(
      /byte 6144/,
    );
  });

  it('accept zeros after the end-of-archive blocks, as GNU tar pads its archives to 10 KiB', () => {
    execFileSync('tar', ['--format=ustar', '-czf', 'gnu.tgz', 'manifest.json'], { cwd: dir });
    expect(untarGz(readFileSync(join(dir, 'gnu.tgz')))).toEqual([ENTRIES[0]]);
    expect(gunzipSync(readFileSync(join(dir, 'gnu.tgz'))).length).toBe(10240);
  });

  it('refuse an archive past the limit, gzipped or unpacked, without unpacking it all', () => {
    const bomb = gzipSync(Buffer.concat([one, Buffer.alloc(50 * 1024 * 1024)]));
    expect(bomb.length).toBeLessThan(100 * 1024);
    const started = performance.now();
    expect(() => untarGz(bomb, 1024 * 1024)).toThrow(/larger than 1048576 bytes unpacked, .*gzip bomb/);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(() => untarGz(Buffer.alloc(2049), 2048)).toThrow(/larger than 2048 bytes gzipped/);
    expect(untarGz(gzipSync(one), one.length)).toEqual([ENTRIES[0]]);
  });

  it('refuse links, folders and other entries that are no regular file', () => {
    for (const type of ['1', '2', '5', 'x', 'L']) {
      const edited = editHeader(one, (header) => header.write(type, 156));
      expect(() => untarGz(gzipSync(edited))).toThrow(`manifest.json: not a regular file (type "${type}"`);
    }
  });

  it('refuse absolute paths, dot parts, control characters and a size that is not plain octal', () => {
    for (const path of ['/etc/passwd', 'a/../../b', './manifest.json', 'a//b', 'a\x1b[2Jb']) {
      const edited = editHeader(one, (header) => {
        header.fill(0, 0, 100);
        header.write(path, 0);
      });
      expect(() => untarGz(gzipSync(edited))).toThrow(`unsafe path in archive: ${JSON.stringify(path)}`);
    }
    const junk = editHeader(one, (header) => header.write('00000000010x', 124));
    expect(() => untarGz(gzipSync(junk))).toThrow(/size runs past/);
  });
});
