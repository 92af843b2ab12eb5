// Reports are written whole or not at all: a disk that fills up part way through a file, or a folder that cannot be
// written, leaves neither a truncated report nor a temporary file, and says which file failed and why.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ReportWriteError, type WriteNew, writeNew, writeWhole } from '../../src/report/atomic.ts';
import { chmodBinds } from '../support/chmod.ts';

const folder = () => mkdtempSync(join(tmpdir(), 'harness-atomic-'));

const FILES = [
  ['conformance.json', '{"checks":[]}\n'],
  ['conformance.html', '<!DOCTYPE html>\n'],
] as const;

/** Writes half of the content, then fails as a full disk does: the 0-byte or cut file the issue found. */
const fullAfterHalf =
  (failing: string): WriteNew =>
  async (path, content) => {
    if (!path.includes(failing)) return writeNew(path, content);
    await writeFile(path, content.slice(0, content.length / 2));
    throw Object.assign(new Error(`ENOSPC: no space left on device, write`), { code: 'ENOSPC' });
  };

describe('writeWhole', () => {
  it('writes every file and leaves no temporary one', async () => {
    const dir = folder();
    expect(await writeWhole(dir, FILES)).toEqual(FILES.map(([name]) => join(dir, name)));
    expect((await readdir(dir)).sort()).toEqual(['conformance.html', 'conformance.json']);
    expect(await readFile(join(dir, 'conformance.json'), 'utf8')).toBe(FILES[0][1]);
  });

  it('makes the folder when it is missing', async () => {
    const dir = join(folder(), 'a', 'run');
    await writeWhole(dir, FILES);
    expect((await readdir(dir)).sort()).toEqual(['conformance.html', 'conformance.json']);
  });

  it.each(['conformance.json', 'conformance.html'])(
    'on a disk full while writing %s: throws naming it, and leaves no file at all',
    async (failing) => {
      const dir = folder();
      const error = await writeWhole(dir, FILES, fullAfterHalf(failing)).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ReportWriteError);
      expect((error as ReportWriteError).message).toBe(`cannot write ${join(dir, failing)}: ENOSPC`);
      expect((error as ReportWriteError).written).toEqual([]);
      expect(await readdir(dir)).toEqual([]);
    },
  );

  it('leaves a report already there as it was when the new one cannot be written', async () => {
    const dir = folder();
    await writeFile(join(dir, 'conformance.json'), 'the last run\n');
    await expect(writeWhole(dir, FILES, fullAfterHalf('conformance.html'))).rejects.toThrow(ReportWriteError);
    expect(await readdir(dir)).toEqual(['conformance.json']);
    expect(await readFile(join(dir, 'conformance.json'), 'utf8')).toBe('the last run\n');
  });

  it('throws naming the folder when a file stands where it should be', async () => {
    const dir = join(folder(), 'run');
    writeFileSync(dir, '');
    await expect(writeWhole(dir, FILES)).rejects.toThrow(
      new ReportWriteError(`cannot create ${dir}: EEXIST`, []),
    );
    await expect(writeWhole(join(dir, 'below'), FILES)).rejects.toThrow(/: ENOTDIR$/);
  });

  it.runIf(chmodBinds)('throws naming the file in a read-only folder, and writes nothing', async () => {
    const dir = folder();
    await mkdir(join(dir, 'run'), { mode: 0o555 });
    await expect(writeWhole(join(dir, 'run'), FILES)).rejects.toThrow(
      `cannot write ${join(dir, 'run', 'conformance.json')}: EACCES`,
    );
    expect(await readdir(join(dir, 'run'))).toEqual([]);
  });

  it('creates each temporary file anew, never writing through one that appeared at its name', async () => {
    const dir = folder();
    const planted: WriteNew = async (path, content) => {
      await writeFile(path, 'planted');
      await writeNew(path, content);
    };
    await expect(writeWhole(dir, FILES, planted)).rejects.toThrow(/conformance\.json: EEXIST$/);
    expect(await readdir(dir)).toEqual([]);
  });
});
