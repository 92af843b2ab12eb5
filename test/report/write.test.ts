import { existsSync } from 'node:fs';
import { lstat, mkdir, mkdtemp, readdir, readFile, readlink, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ReportWriteError, type WriteNew } from '../../src/report/atomic.ts';
import { conformanceErrors, pointLatest, timestampDir, writeReports } from '../../src/report/write.ts';
import { FIXTURE } from './fixture.ts';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'harness-reports-'));
});
afterEach(() => rm(root, { recursive: true, force: true }));

const AT = new Date('2026-11-21T23:45:12.345Z');

describe('timestampDir', () => {
  it('creates a colon-free directory per run and suffixes one already taken', async () => {
    const first = await timestampDir(join(root, 'reports'), AT);
    expect(first).toBe(join(root, 'reports', '2026-11-21T23-45-12Z'));
    expect((await lstat(first)).isDirectory()).toBe(true);
    expect(await timestampDir(join(root, 'reports'), AT)).toBe(`${first}-2`);
    expect(await timestampDir(join(root, 'reports'), AT)).toBe(`${first}-3`);
  });
});

describe('writeReports', () => {
  it('writes every format and points latest at the run', async () => {
    const dir = await timestampDir(join(root, 'reports'), AT);
    const result = await writeReports(FIXTURE, { dir, formats: ['json', 'junit', 'html', 'markdown'] });
    expect(result).toEqual({
      dir,
      files: ['conformance.json', 'conformance.xml', 'conformance.html', 'conformance.md', 'index.html'].map(
        (f) => join(dir, f),
      ),
    });
    // The page to open first links the verdict page first, then the other reports.
    const links = [
      ...(await readFile(join(dir, 'index.html'), 'utf8')).matchAll(/<li[^>]*><a href="([^"]+)">/g),
    ].map((m) => m[1]);
    expect(links).toEqual(['conformance.html', 'conformance.xml', 'conformance.json', 'conformance.md']);
    const json = JSON.parse(await readFile(join(dir, 'conformance.json'), 'utf8'));
    expect(json).toEqual(JSON.parse(JSON.stringify(FIXTURE)));
    expect(conformanceErrors(json)).toEqual([]);
    expect(await readFile(join(dir, 'conformance.xml'), 'utf8')).toMatch(/^<\?xml /);
    expect(await readFile(join(dir, 'conformance.html'), 'utf8')).toMatch(/^<!DOCTYPE html>/);
    expect(await readFile(join(dir, 'conformance.md'), 'utf8')).toMatch(/^## \S+ harness conformance: /);

    const latest = join(root, 'reports', 'latest');
    expect((await lstat(latest)).isSymbolicLink()).toBe(true);
    expect(await readlink(latest)).toBe('2026-11-21T23-45-12Z');
    expect(existsSync(join(latest, 'conformance.html'))).toBe(true);
  });

  it('moves latest to the newest run and leaves no temporary links', async () => {
    const first = await timestampDir(join(root, 'reports'), AT);
    const second = await timestampDir(join(root, 'reports'), AT);
    await writeReports(FIXTURE, { dir: first, formats: ['json'] });
    await writeReports(FIXTURE, { dir: second, formats: ['html'] });
    expect(await readlink(join(root, 'reports', 'latest'))).toBe('2026-11-21T23-45-12Z-2');
    expect((await readdir(join(root, 'reports'))).sort()).toEqual([
      '2026-11-21T23-45-12Z',
      '2026-11-21T23-45-12Z-2',
      'latest',
    ]);
    expect((await readdir(second)).sort()).toEqual(['conformance.html', 'index.html']);
  });

  it('creates the directory when given a plain path', async () => {
    const dir = join(root, 'nested', 'run');
    await writeReports(FIXTURE, { dir, formats: ['junit', 'junit'] });
    expect(await readdir(dir)).toEqual(['conformance.xml']);
    expect(await readlink(join(root, 'nested', 'latest'))).toBe('run');
  });

  it('refuses a report that does not match the schema and writes nothing', async () => {
    const dir = join(root, 'bad');
    const bad = { ...FIXTURE, counts: { ...FIXTURE.counts, PASS: -1 } };
    await expect(writeReports(bad, { dir, formats: ['html', 'json'] })).rejects.toThrow(
      /conformance\.json does not match its schema: \/counts\/PASS must be >= 0/,
    );
    expect(existsSync(dir)).toBe(false);
    expect(existsSync(join(root, 'latest'))).toBe(false);
  });

  it('leaves a latest folder with content, or a file, as it is, and says so', async () => {
    await mkdir(join(root, 'latest', 'keep'), { recursive: true });
    await writeFile(join(root, 'latest', 'keep', 'old.json'), '{}');
    const dir = join(root, 'run');
    const result = await writeReports(FIXTURE, { dir, formats: ['json'] });
    expect(result.latestNotMoved).toBe(
      `${join(root, 'latest')} is a folder, not the link harness keeps: left as it is; this run's reports are in ${dir}`,
    );
    expect(result.files).toEqual([join(dir, 'conformance.json')]);
    expect(await readFile(join(root, 'latest', 'keep', 'old.json'), 'utf8')).toBe('{}');
    await rm(join(root, 'latest'), { recursive: true });
    await writeFile(join(root, 'latest'), 'mine');
    expect(await pointLatest(dir)).toMatch(/latest is a file, not the link harness keeps: left as it is/);
    expect(await readFile(join(root, 'latest'), 'utf8')).toBe('mine');
    expect((await readdir(root)).filter((name) => name.startsWith('.latest'))).toEqual([]);
  });

  it('on a disk full part way through a report: throws, writes no file, and leaves latest at the last run', async () => {
    const first = await timestampDir(join(root, 'reports'), AT);
    await writeReports(FIXTURE, { dir: first, formats: ['json'] });
    const second = await timestampDir(join(root, 'reports'), AT);
    const full: WriteNew = async (path, content) => {
      await writeFile(path, content.slice(0, 100));
      throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    };
    await expect(
      writeReports(FIXTURE, { dir: second, formats: ['json', 'html'], write: full }),
    ).rejects.toThrow(new ReportWriteError(`cannot write ${join(second, 'conformance.json')}: ENOSPC`, []));
    expect(await readdir(second)).toEqual([]);
    expect(await readlink(join(root, 'reports', 'latest'))).toBe('2026-11-21T23-45-12Z');
  });

  it('replaces an empty latest folder with the link', async () => {
    await mkdir(join(root, 'latest'));
    const result = await writeReports(FIXTURE, { dir: join(root, 'run'), formats: ['json'] });
    expect(result.latestNotMoved).toBeUndefined();
    expect(await readlink(join(root, 'latest'))).toBe('run');
  });
});
