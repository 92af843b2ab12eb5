// Reports compare and trend refuse as forged or malformed: each is bad input (exit 2) naming the file and what is
// wrong, never graded. Each forged report differs from a genuine one (which is read) in the one way named.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { judge, reportJson } from '../../core/judged.ts';
import { readRun } from '../../src/compare/run-docs.ts';
import { isHarnessError } from '../../src/errors.ts';
import type { RunReport } from '../../src/runner/types.ts';
import { specDigest } from '../../src/spec/digest.ts';
import { harness } from '../cli/run.ts';
import { NETWORKS, simulate } from '../load/simulate.ts';
import { GENUINE_CHECKS, genuine } from './genuine.ts';

const dir = mkdtempSync(join(tmpdir(), 'harness-forged-'));
let written = 0;
const write = (content: unknown, name = 'conformance.json'): string => {
  const folder = join(dir, String(++written));
  mkdirSync(folder);
  writeFileSync(join(folder, name), typeof content === 'string' ? content : JSON.stringify(content));
  return join(folder, name);
};

/** The one line readRun refuses `file` with, asserting it is bad input (exit 2). */
const refusal = (file: string): string => {
  try {
    readRun(file);
  } catch (error) {
    expect(isHarnessError(error, 'HARNESS_INPUT'), String(error)).toBe(true);
    return (error as Error).message;
  }
  throw new Error(`${file} was read, not refused`);
};

const [first, second] = GENUINE_CHECKS as [RunReport['checks'][number], RunReport['checks'][number]];

/** The fields of a load summary's JSON the forgeries below change. */
interface SummaryJson {
  generatedAt: string;
  grades: unknown[];
  phases: { admitted: number; offered: number }[];
}

/** A load summary as `harness load` writes it, with `change` made to the parsed JSON. */
const loadSummary = (change: (summary: SummaryJson) => void = () => {}) => {
  const summary = simulate(
    { kind: 'anchored', network: NETWORKS.lan, seed: 1 },
    { scenarios: ['transactions'] },
  );
  const stamp = { harness: { name: 'harness', version: '0.1.0' }, specDigest: specDigest() };
  const json = JSON.parse(reportJson(judge({ ...summary, generatedAt: '2026-11-27T11:00:00.000Z' }), stamp));
  change(json);
  return write(json, 'load-transactions-summary.json');
};

describe('a forged conformance report', () => {
  it('is read when genuine', () => {
    expect(readRun(write(genuine())).conformance?.checks).toHaveLength(GENUINE_CHECKS.length);
  });

  it.each([
    [
      'one check twice, FAIL then PASS',
      genuine([{ ...first, grade: 'FAIL' }, { ...first, grade: 'PASS' }, second]),
      `/checks/1/id: ${first.id} a second time (a run grades each check once)`,
    ],
    [
      'a PASS for a check harness does not have',
      genuine([...GENUINE_CHECKS, { ...first, id: 'LIMIT-EVERYTHING-FINE', grade: 'PASS' }]),
      `/checks/${GENUINE_CHECKS.length}/id: LIMIT-EVERYTHING-FINE is no check harness has`,
    ],
    [
      'an endpoint check of no Observability endpoint',
      genuine([{ ...first, id: 'ENDPOINT-GET-API-ANYTHING', tags: ['endpoints', 'rules'] }]),
      '/checks/0/id: ENDPOINT-GET-API-ANYTHING is no check harness has',
    ],
    ['zero checks', genuine([]), '/checks: no check at all (a run of no check writes no report)'],
    [
      'counts that contradict the checks',
      { ...genuine(), counts: { ...genuine().counts, FAIL: 0, PASS: 9 } },
      '/counts/FAIL: 0, but 2 of its checks are graded FAIL',
    ],
    [
      'a start dated 9999',
      { ...genuine(), startedAt: '9999-01-01T00:00:00.000Z', finishedAt: '9999-01-01T00:01:00.000Z' },
      '/startedAt: 9999-01-01T00:00:00.000Z is in the future',
    ],
    [
      'a start before harness wrote any report',
      { ...genuine(), startedAt: '1970-01-01T00:00:00.000Z' },
      '/startedAt: 1970-01-01T00:00:00.000Z is before harness wrote any report',
    ],
    [
      'an end before its start',
      { ...genuine(), finishedAt: '2026-11-21T23:00:00.000Z' },
      '/finishedAt: 2026-11-21T23:00:00.000Z, before the run started (2026-11-21T23:45:12.000Z)',
    ],
  ])('is refused: %s', (_, report, why) => {
    const file = write(report);
    expect(refusal(file)).toBe(`${file}: not a harness conformance report harness wrote: ${why}`);
  });

  it('is refused with a grade no check has, and says where', () => {
    const file = write(genuine([{ ...first, grade: '<script>' as 'PASS' }]));
    expect(refusal(file)).toMatch(
      /^\S+: not a harness conformance report: \/checks\/0\/grade: must be equal to one/,
    );
  });

  it('accepts an endpoint check of an Observability endpoint the profile named', () => {
    const own = { ...first, id: 'ENDPOINT-POST-API-STATS', tags: ['endpoints', 'observability'] };
    expect(readRun(write(genuine([own]))).conformance?.checks[0]?.id).toBe('ENDPOINT-POST-API-STATS');
  });
});

describe('a forged load summary', () => {
  it('is read when genuine', () => {
    expect(readRun(loadSummary()).load[0]?.report.grades?.length).toBeGreaterThan(0);
  });

  it.each([
    ['grades: [null]', (s: SummaryJson) => (s.grades = [null]), /\/grades\/0: must be object$/],
    [
      'a grade holding markup',
      (s: SummaryJson) => Object.assign(s.grades[0] as object, { grade: '<img src=x onerror=alert(1)>' }),
      /\/grades\/0\/grade: must be equal to one of the allowed values$/,
    ],
    [
      'a grade for a phase it does not have',
      (s: SummaryJson) => Object.assign(s.grades[0] as object, { phase: 'over_everything' }),
      /harness wrote: \/grades\/0\/phase: over_everything is no phase of this summary$/,
    ],
    [
      'a phase graded twice',
      (s: SummaryJson) => s.grades.push(s.grades[0]),
      /harness wrote: \/grades\/\d+\/phase: \w+ graded a second time$/,
    ],
    [
      'a date of 9999',
      (s: SummaryJson) => (s.generatedAt = '9999-12-31T00:00:00.000Z'),
      /harness wrote: \/generatedAt: 9999-12-31T00:00:00\.000Z is in the future$/,
    ],
    [
      'more admitted than offered',
      ({ phases: [phase] }: SummaryJson) => (phase!.admitted = phase!.offered + 1),
      /harness wrote: \/phases\/0\/admitted: \d+, more than the \d+ requests offered$/,
    ],
  ])('is refused: %s', (_, change, why) => {
    expect(refusal(loadSummary(change))).toMatch(why);
  });

  it('is refused beside a conformance report of other SPEC.md data in one run folder', () => {
    const folder = join(loadSummary(), '..');
    writeFileSync(
      join(folder, 'conformance.json'),
      JSON.stringify({ ...genuine(), specDigest: `sha256:${'1'.repeat(64)}` }),
    );
    expect(refusal(folder)).toBe(
      `${folder}: its reports were judged against different SPEC.md data: they are not one run`,
    );
  });
});

describe('harness compare and trend on forged or unreadable input', () => {
  const good = write(genuine());

  it.each([
    [
      'a forged report',
      () =>
        write(
          genuine([
            { ...first, grade: 'FAIL' },
            { ...first, grade: 'PASS' },
          ]),
        ),
    ],
    ['/dev/zero', () => '/dev/zero'],
    [
      'a FIFO no one writes to',
      () => {
        const fifo = join(dir, `fifo-${++written}.json`);
        execFileSync('mkfifo', [fifo]);
        return fifo;
      },
    ],
  ])('compare exits 2 in one line on %s, within seconds', async (_, make) => {
    const bad = make();
    const run = await harness(['compare', good, bad, '--out', join(dir, 'out')], {}, 20_000);
    expect(run.status, run.stderr).toBe(2);
    expect(run.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^harness: \S+: \S.*$/)]);
    expect(run.stdout).toBe('');
  });

  it('trend exits 2 naming the forged run, instead of drawing the page over it', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'harness-forged-trend-'));
    for (const [name, report] of [
      ['genuine', genuine()],
      [
        'forged',
        { ...genuine(), startedAt: '9999-01-01T00:00:00.000Z', finishedAt: '9999-01-01T00:00:01.000Z' },
      ],
    ] as const) {
      mkdirSync(join(folder, name));
      writeFileSync(join(folder, name, 'conformance.json'), JSON.stringify(report));
    }
    const run = await harness(['trend', folder], {}, 20_000);
    expect(run.status, run.stderr).toBe(2);
    expect(run.stderr.trim()).toBe(
      `harness: ${join(folder, 'forged', 'conformance.json')}: not a harness conformance report harness wrote: /startedAt: 9999-01-01T00:00:00.000Z is in the future`,
    );
  });
});
