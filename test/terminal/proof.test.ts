// Each FAIL's proof on the terminal, before the summary: the exchange the grade turns on, the header or body fragment
// that shows it, a limit burst as one line of counts, and the reproduction; the target's text escaped.
import { describe, expect, it, vi } from 'vitest';
import type { Evidence } from '../../src/client/index.ts';
import type { CheckResult } from '../../src/runner/types.ts';
import { proofLines } from '../../src/terminal/proof.ts';
import { printSummary } from '../../src/terminal/summary.ts';
import { FIXTURE, FIXTURE_CHECKS, reportOf } from '../report/fixture.ts';

const shown = (checks: readonly CheckResult[]) => proofLines(checks).map((line) => line.text);

const answered = (
  label: string,
  status: number,
  headers: Record<string, string>,
  body?: string,
): Evidence => ({
  label,
  request: { method: 'GET', url: 'https://api.example.test/api/rules/schedule', headers: {} },
  response: { status, headers, ...(body === undefined ? {} : { body }) },
  startedAt: '2026-11-21T23:45:12.000Z',
  durationMs: 3,
});

const failing = FIXTURE_CHECKS.find((c) => c.id === 'ERROR-BAD-SCOPE')!;

describe('proofLines', () => {
  it('shows the exchange the message names, with the header it names, and the reproduction', () => {
    const check: CheckResult = {
      ...failing,
      id: 'LIMIT-RETRY-AFTER-SCHEDULE',
      message: "the 429 to 'spend #121' has Retry-After '\x9b2J soon', not an integer number of seconds",
      evidence: [
        answered('spend #1', 200, { 'retry-after': '5' }),
        answered(
          'spend #121',
          429,
          { 'content-type': 'application/json', 'retry-after': '\x9b2J soon' },
          '{}',
        ),
        answered('spend #122', 429, { 'retry-after': '1' }),
      ],
      repro: ['npx --no-install harness replay LIMIT-RETRY-AFTER-SCHEDULE --profile p.yaml'],
    };
    expect(shown([check])).toEqual([
      'proof of each FAIL:',
      '  LIMIT-RETRY-AFTER-SCHEDULE',
      "    'spend #121' GET https://api.example.test/api/rules/schedule → 429",
      '      retry-after: \\u009b2J soon',
      '    and 2 more exchanges in the reports',
      '    reproduce:',
      '      npx --no-install harness replay LIMIT-RETRY-AFTER-SCHEDULE --profile p.yaml',
    ]);
  });

  it('shows the body around the field the message names, cut short', () => {
    const body = `{"access_token":"${'x'.repeat(300)}","expires_in":3600,"token_type":"bearer"}`;
    const check: CheckResult = {
      ...failing,
      message: 'token_type is "bearer", not "Bearer"',
      evidence: [answered('token request', 200, { 'content-type': 'application/json' }, body)],
    };
    const [, , , fragment] = shown([check]);
    expect(fragment).toBe('      body: …","expires_in":3600,"token_type":"bearer"}');
    expect(fragment!.length).toBeLessThan(140);
  });

  it('folds a limit FAIL: its burst is one line of counts, not the burst', () => {
    const limit = FIXTURE_CHECKS.find((c) => c.id === 'LIMIT-ADMITS-SCHEDULE')!;
    const lines = shown([limit]);
    expect(lines).toContain(
      '    the burst: a 429 with at most 100 admitted in the 60030 ms before it, where a faithful limiter of 120 per 60000 ms needs 120; its 121 requests are drawn in conformance.html',
    );
    expect(lines.length).toBeLessThanOrEqual(6);
  });

  it('shows at most four reproduction lines, and nothing at all when nothing failed', () => {
    const long = { ...failing, repro: ['a', 'b', 'c', 'd', 'e', 'f'] };
    expect(shown([long]).slice(-2)).toEqual(['      d', '    (2 more lines in conformance.md)']);
    expect(shown(FIXTURE_CHECKS.filter((c) => c.grade !== 'FAIL'))).toEqual([]);
  });

  it('comes after the table of grades and before the coverage, the certifiability and the summary', () => {
    const lines: string[] = [];
    const log = vi.spyOn(console, 'log').mockImplementation((line: string) => void lines.push(line));
    try {
      printSummary(reportOf(FIXTURE.checks), [], []);
    } finally {
      log.mockRestore();
    }
    const proofAt = lines.indexOf('proof of each FAIL:');
    const lastGrade = lines.map((line) => /^(FAIL|INFO|SKIP) /.test(line)).lastIndexOf(true);
    expect(proofAt).toBeGreaterThan(lastGrade);
    expect(lines.slice(proofAt + 1, -3).every((line) => line.startsWith('  '))).toBe(true);
    expect(lines.at(-3)).toMatch(/^coverage: /);
    expect(lines.at(-1)).toMatch(/^summary: /);
  });
});
