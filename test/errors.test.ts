// One error base with stable codes: every error harness throws on purpose carries a code from ERROR_CODES, callers
// tell errors apart by it, and the exit code of an error that ends a command comes from the exit table's map.
import { describe, expect, it } from 'vitest';
import { ArchiveError } from '../src/certify/untar.ts';
import { exitCodeOfError, HARNESS_ERROR, USAGE_ERROR } from '../src/cli/exit-codes.ts';
import { TargetError, TokenError } from '../src/client/index.ts';
import { ERROR_CODES, type HarnessError, InputError, isHarnessError } from '../src/errors.ts';
import { PreflightError } from '../src/k6-driver/preflight.ts';
import { LoadInterrupted } from '../src/k6-driver/run.ts';
import { ReportWriteError } from '../src/report/atomic.ts';
import { ReportDirError } from '../src/report/write.ts';
import { BudgetExhausted } from '../src/runner/budget.ts';
import { GradedEnd } from '../src/runner/grades.ts';

const evidence = {
  request: { method: 'GET', url: 'http://127.0.0.1:1/', headers: {} },
  durationMs: 0,
} as never;

const THROWN: readonly HarnessError[] = [
  new InputError('--rate: not a number'),
  new TargetError('unreachable', 'connection refused', evidence, { cause: undefined }),
  new TokenError('token endpoint said 401', evidence),
  new PreflightError('no id'),
  new LoadInterrupted('interrupted (SIGINT)'),
  new ReportWriteError('ENOSPC', []),
  new ReportDirError('EACCES'),
  new ArchiveError('corrupt'),
  new BudgetExhausted(10),
];

describe('HarnessError', () => {
  it.each(THROWN.map((error) => [error.name, error] as const))('%s carries a stable code', (_name, error) => {
    expect(isHarnessError(error)).toBe(true);
    expect(Object.keys(ERROR_CODES)).toContain(error.code);
  });

  it('is told apart by code, one code or several', () => {
    const error = new PreflightError('no id');
    expect(isHarnessError(error, 'HARNESS_PREFLIGHT')).toBe(true);
    expect(isHarnessError(error, 'HARNESS_TARGET', 'HARNESS_PREFLIGHT')).toBe(true);
    expect(isHarnessError(error, 'HARNESS_INPUT')).toBe(false);
    expect(isHarnessError(new Error('a bug'))).toBe(false);
  });

  it('narrows to the class its code is thrown as, so what it carries is read without instanceof', () => {
    const caught: unknown = new TokenError('token endpoint said 401', evidence);
    if (!isHarnessError(caught, 'HARNESS_TOKEN')) throw new Error('a TokenError not told by its code');
    expect(caught.evidence).toBe(evidence);
    expect(isHarnessError(caught, 'HARNESS_TARGET')).toBe(false);
  });
});

describe('GradedEnd', () => {
  it('is a verdict a check throws, not an error of harness: one that escaped a check exits 4, as a bug', () => {
    const end = new GradedEnd('FAIL', 'no');
    expect(isHarnessError(end)).toBe(false);
    expect(exitCodeOfError(end)).toBe(HARNESS_ERROR);
  });
});

describe('exitCodeOfError', () => {
  it('exits 2 for bad input, and 4 for anything else that reaches the top: a bug, coded or not', () => {
    expect(exitCodeOfError(new InputError('--rate: not a number'))).toBe(USAGE_ERROR);
    expect(exitCodeOfError(new ReportWriteError('ENOSPC', []))).toBe(HARNESS_ERROR);
    expect(exitCodeOfError(new TypeError('x is undefined'))).toBe(HARNESS_ERROR);
    expect(exitCodeOfError('a string')).toBe(HARNESS_ERROR);
  });
});
