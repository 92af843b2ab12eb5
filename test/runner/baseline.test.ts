// --baseline's file is read as every file read back is: a regular file within the cap, then held to what it claims
// to be. A conformance report as strictly as compare holds one (a forged one is refused, never trusted to excuse a
// FAIL); a plain object only with checks harness has and grades that exist. Each refusal is bad input (exit 2)
// naming the flag and the file.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isHarnessError } from '../../src/errors.ts';
import { loadBaseline } from '../../src/runner/baseline.ts';
import { GENUINE_CHECKS, genuine } from '../compare/genuine.ts';

const dir = mkdtempSync(join(tmpdir(), 'harness-baseline-'));
let written = 0;
const file = (content: unknown) => {
  const path = join(dir, `baseline-${++written}.json`);
  writeFileSync(path, JSON.stringify(content));
  return path;
};

const refusal = (path: string): string => {
  try {
    loadBaseline(path);
  } catch (error) {
    expect(isHarnessError(error, 'HARNESS_INPUT'), String(error)).toBe(true);
    return (error as Error).message;
  }
  throw new Error(`${path} was accepted`);
};

describe('loadBaseline', () => {
  it('reads a plain object of checks harness has, and a genuine conformance report', () => {
    expect(loadBaseline(file({ 'AUTH-TOKEN-NO-STORE': 'WARN' }))).toEqual(
      new Map([['AUTH-TOKEN-NO-STORE', 'WARN']]),
    );
    expect(loadBaseline(file(genuine())).get('AUTH-TOKEN-BAD-SCOPE')).toBe('FAIL');
  });

  it('refuses a conformance report that lists one check twice: a forged report excuses nothing', () => {
    const [first] = GENUINE_CHECKS;
    const path = file(
      genuine([
        { ...first!, grade: 'FAIL' },
        { ...first!, grade: 'PASS' },
      ]),
    );
    expect(refusal(path)).toBe(
      `--baseline ${path}: not a harness conformance report harness wrote: /checks/1/id: AUTH-TOKEN-FORM a second time (a run grades each check once)`,
    );
  });

  it.each([
    [
      'a check harness does not have',
      { 'LIMIT-EVERYTHING-FINE': 'FAIL' },
      'LIMIT-EVERYTHING-FINE: no check harness has',
    ],
    ['a grade that does not exist', { 'AUTH-TOKEN-TYPE': null }, "AUTH-TOKEN-TYPE: 'null' is not one of"],
    ['a list', ['FAIL'], 'neither a conformance report nor an object of check IDs and their grades'],
    ['a string', 'FAIL', 'neither a conformance report nor an object of check IDs and their grades'],
  ])('refuses %s, naming the flag and the file', (_, content, why) => {
    const path = file(content);
    expect(refusal(path)).toContain(`--baseline ${path}: ${why}`);
  });

  it('accepts the endpoint check of an Observability endpoint the profile named', () => {
    expect(loadBaseline(file({ 'ENDPOINT-GET-API-STATS': 'FAIL' })).size).toBe(1);
  });

  it('refuses a FIFO at once', { timeout: 5000 }, () => {
    const fifo = join(dir, 'fifo.json');
    execFileSync('mkfifo', [fifo]);
    expect(refusal(fifo)).toBe(
      `--baseline ${fifo}: a pipe (FIFO), not a regular file: harness reads back only files`,
    );
  });
});
