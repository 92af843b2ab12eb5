import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { type TarEntry, tarGz } from '../../src/certify/tar.ts';
import { ArchiveError } from '../../src/certify/untar.ts';
import { editHeader } from './tar-edit.ts';
import { untarGz } from './untar.ts';

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

describe('tarGz and readTarGz', () => {
  it('read back exactly what was written, in order', async () => {
    expect(await untarGz(tarGz(ENTRIES, AT))).toEqual(ENTRIES);
  });

  it('write what GNU tar reads: names, sizes, contents', async () => {
    const file = join(dir, 'a.tgz');
    writeFileSync(file, tarGz(ENTRIES, AT));
    const listed = execFileSync('tar', ['-tzf', file], { encoding: 'utf8' }).trim().split('\n');
    expect(listed).toEqual(ENTRIES.map((e) => e.path));
    execFileSync('tar', ['-xzf', file, '-C', dir]);
    for (const entry of ENTRIES) expect(readFileSync(join(dir, entry.path))).toEqual(entry.data);
  });

  it('refuse a corrupt header, an unsafe or repeated path, and a file that is not gzip', async () => {
    const tar = gunzipSync(tarGz(ENTRIES, AT));
    tar[0] = tar[0]! ^ 1;
    await expect(untarGz(gzipSync(tar))).rejects.toThrow(/header checksum mismatch/);
    await expect(untarGz(tarGz([{ path: '../escape', data: Buffer.alloc(1) }], AT))).rejects.toThrow(
      /unsafe path/,
    );
    await expect(untarGz(tarGz([ENTRIES[0]!, ENTRIES[0]!], AT))).rejects.toThrow(/appears twice/);
    await expect(untarGz(Buffer.from('not gzip'))).rejects.toThrow(ArchiveError);
    await expect(untarGz(gzipSync(tar.subarray(0, 512)))).rejects.toThrow(ArchiveError);
  });

  const one = gunzipSync(tarGz([ENTRIES[0]!], AT));
  const unsigned = gunzipSync(tarGz([{ path: 'unsigned.txt', data: Buffer.from('x') }], AT));

  it('refuse a second archive after the end-of-archive blocks, in the same gzip member or the next', async () => {
    const trailing = join(dir, 'trailing.tgz');
    writeFileSync(trailing, gzipSync(Buffer.concat([one, unsigned])));
    // What makes it matter: GNU tar unpacks the second archive when told to read past zero blocks.
    expect(execFileSync('tar', ['-tizf', trailing], { encoding: 'utf8' })).toContain('unsigned.txt');
    const after = /data after the end-of-archive blocks \(byte 2048\)/;
    await expect(untarGz(readFileSync(trailing))).rejects.toThrow(after);
    await expect(untarGz(Buffer.concat([gzipSync(one), gzipSync(unsigned)]))).rejects.toThrow(after);
    await expect(
      untarGz(gzipSync(Buffer.concat([one, Buffer.alloc(4096), Buffer.from([1])]))),
    ).rejects.toThrow(/byte 6144/);
  });

  it('read the same archive whatever its chunks: a byte at a time, or split across gzip members', async () => {
    const tar = gunzipSync(tarGz(ENTRIES, AT));
    expect(await untarGz(tarGz(ENTRIES, AT), undefined, 1)).toEqual(ENTRIES);
    const members = Buffer.concat([gzipSync(tar.subarray(0, 700)), gzipSync(tar.subarray(700))]);
    expect(await untarGz(members)).toEqual(ENTRIES);
  });

  it('accept zeros after the end-of-archive blocks, as GNU tar pads its archives to 10 KiB', async () => {
    execFileSync('tar', ['--format=ustar', '-czf', 'gnu.tgz', 'manifest.json'], { cwd: dir });
    expect(await untarGz(readFileSync(join(dir, 'gnu.tgz')))).toEqual([ENTRIES[0]]);
    expect(gunzipSync(readFileSync(join(dir, 'gnu.tgz'))).length).toBe(10240);
  });

  it('refuse an archive past the limit, gzipped or unpacked, without unpacking it all', async () => {
    const bomb = gzipSync(Buffer.concat([one, Buffer.alloc(50 * 1024 * 1024)]));
    expect(bomb.length).toBeLessThan(100 * 1024);
    const started = performance.now();
    await expect(untarGz(bomb, 1024 * 1024)).rejects.toThrow(
      /larger than 1048576 bytes unpacked, .*gzip bomb/,
    );
    expect(performance.now() - started).toBeLessThan(1000);
    // Empty stored deflate blocks, five bytes each: a gzip stream that could go on forever and unpack to nothing.
    const endless = Buffer.concat([
      gzipSync(one).subarray(0, 10),
      Buffer.alloc(5000, Buffer.from([0, 0, 0, 0xff, 0xff])),
    ]);
    await expect(untarGz(endless, 4096)).rejects.toThrow(/larger than 4096 bytes gzipped/);
    expect(await untarGz(gzipSync(one), one.length)).toEqual([ENTRIES[0]]);
  });

  it('refuse links, folders and other entries that are no regular file', async () => {
    for (const type of ['1', '2', '5', 'x', 'L']) {
      const edited = editHeader(one, (header) => header.write(type, 156));
      await expect(untarGz(gzipSync(edited))).rejects.toThrow(
        `manifest.json: not a regular file (type "${type}"`,
      );
    }
  });

  it('refuse absolute paths, dot parts, control characters and a size that is not plain octal', async () => {
    for (const path of ['/etc/passwd', 'a/../../b', './manifest.json', 'a//b', 'a\x1b[2Jb']) {
      const edited = editHeader(one, (header) => {
        header.fill(0, 0, 100);
        header.write(path, 0);
      });
      await expect(untarGz(gzipSync(edited))).rejects.toThrow(
        `unsafe path in archive: ${JSON.stringify(path)}`,
      );
    }
    const junk = editHeader(one, (header) => header.write('00000000010x', 124));
    await expect(untarGz(gzipSync(junk))).rejects.toThrow(/size runs past/);
  });
});
