// How much a run verified stands beside its verdict in every report a person opens first, so a PASS over a run
// that skipped many checks never reads as a full one.

import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { coverageSentence } from '../../src/report/coverage.ts';
import { toHtml } from '../../src/report/html.ts';
import { toMarkdown } from '../../src/report/markdown.ts';
import { RUN_INDEX } from '../../src/report/run-index.ts';
import { writeReports } from '../../src/report/write.ts';
import type { RunReport } from '../../src/runner/types.ts';
import { FIXTURE_CHECKS, reportOf } from './fixture.ts';

/** Every check PASS but three the profile could not run: the verdict PASS, the coverage 7 of 10. */
const PARTIAL: RunReport = reportOf(
  FIXTURE_CHECKS.map((c, i) =>
    i < 3
      ? { ...c, grade: 'SKIP', message: 'the profile has no clients.restricted <b>' }
      : { ...c, grade: 'PASS' },
  ),
);
const SENTENCE = '7 of 10 checks ran; 3 skipped: 3 because the profile has no clients.restricted <b>';

describe('coverage beside the verdict', () => {
  it('is the shared sentence', () => {
    expect(coverageSentence(PARTIAL)).toBe(SENTENCE);
  });

  it('follows the verdict in the HTML header, marked partial, escaped', () => {
    const page = toHtml(PARTIAL);
    expect(page).toMatch(
      /<p class="verdict"><span class="outcome">PASS<\/span>.*<\/p>\n<p class="coverage partial">7 of 10 checks ran; 3 skipped: 3 because the profile has no clients\.restricted &lt;b&gt;<\/p>/,
    );
    expect(toHtml(reportOf(FIXTURE_CHECKS.map((c) => ({ ...c, grade: 'PASS' }))))).toContain(
      '<p class="coverage">all 10 checks ran</p>',
    );
  });

  it('follows the headline in conformance.md (and so the job summary), escaped', () => {
    const lines = toMarkdown(PARTIAL).split('\n');
    expect(lines[0]).toBe('## ✅ harness conformance: PASS');
    expect(lines[2]).toBe(
      '**Coverage:** 7 of 10 checks ran; 3 skipped: 3 because the profile has no clients.restricted \\<b>',
    );
  });

  it('follows the verdict on index.html', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'coverage-'));
    await writeReports(PARTIAL, { dir, formats: ['html'] });
    expect(readFileSync(join(dir, RUN_INDEX), 'utf8')).toContain(
      '<span class="outcome">PASS</span></p>\n<p class="coverage">7 of 10 checks ran; 3 skipped: 3 because the profile has no clients.restricted &lt;b&gt;</p>',
    );
  });
});
