// The one reader of files harness reads back: a regular file within the cap is read; anything else (a FIFO, a device,
// a folder, a link to one of those, a file over the cap) is refused at once, exit 2 naming the file, never a hang,
// never a read of more than the cap.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isHarnessError } from '../src/errors.ts';
import { MAX_READ_BACK_BYTES, readBack, readBackJson } from '../src/read-back.ts';

const dir = mkdtempSync(join(tmpdir(), 'harness-read-back-'));

/** The one line `readBack` refuses `file` with, asserting it is bad input (exit 2) and no other error. */
const refusal = (read: () => unknown): string => {
  try {
    read();
  } catch (error) {
    expect(isHarnessError(error, 'HARNESS_INPUT'), String(error)).toBe(true);
    return (error as Error).message;
  }
  throw new Error('read, not refused');
};

describe('readBack', () => {
  it('reads a regular file, and one through a link', () => {
    const file = join(dir, 'report.json');
    writeFileSync(file, '{"a": 1}');
    symlinkSync(file, join(dir, 'linked.json'));
    expect(readBackJson(file)).toEqual({ a: 1 });
    expect(readBack(join(dir, 'linked.json'))).toBe('{"a": 1}');
  });

  it('refuses a file just over the cap by its size, before reading it', () => {
    // Sparse: one byte over the cap to stat, nothing to read.
    const huge = join(dir, 'huge.json');
    writeFileSync(huge, '');
    truncateSync(huge, MAX_READ_BACK_BYTES + 1);
    const started = performance.now();
    expect(refusal(() => readBack(huge))).toBe(
      `${huge}: ${MAX_READ_BACK_BYTES + 1} bytes, more than the ${MAX_READ_BACK_BYTES} any file harness reads back may hold`,
    );
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('refuses /dev/zero, a link to it and a folder, naming what each is', () => {
    symlinkSync('/dev/zero', join(dir, 'zero.json'));
    mkdirSync(join(dir, 'folder.json'));
    expect(refusal(() => readBack('/dev/zero'))).toBe(
      '/dev/zero: a device, not a regular file: harness reads back only files',
    );
    expect(refusal(() => readBack(join(dir, 'zero.json')))).toMatch(
      /zero\.json: a device, not a regular file/,
    );
    expect(refusal(() => readBack(join(dir, 'folder.json')))).toMatch(
      /folder\.json: a folder, not a regular file/,
    );
    expect(refusal(() => readBack(join(dir, 'absent.json')))).toMatch(
      /absent\.json: cannot be read \(ENOENT\)$/,
    );
  });

  it('refuses a FIFO no one writes to at once, instead of waiting for a writer', { timeout: 5000 }, () => {
    const fifo = join(dir, 'fifo.json');
    execFileSync('mkfifo', [fifo]);
    const started = performance.now();
    expect(refusal(() => readBack(fifo))).toMatch(/fifo\.json: a pipe \(FIFO\), not a regular file/);
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('names the file as asked (a flag with it) and shows its control characters visibly', () => {
    expect(refusal(() => readBack(join(dir, 'none'), '--baseline none'))).toBe(
      '--baseline none: cannot be read (ENOENT)',
    );
    expect(refusal(() => readBack(join(dir, '\u001b]52;c;aGk=\u0007.json')))).toMatch(
      /\\u001b\]52;c;aGk=\\u0007\.json: cannot be read/,
    );
  });
});
