// A FAIL the baseline expects exits 0, and every output says so in the same words: none may read FAIL over a run
// whose exit code passed it.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { startReferenceServer } from '../../src/reference/index.ts';
import { SCALED } from '../support/testbed.ts';
import { harness, profileFor, SIDE_BY_SIDE, tmp } from './run.ts';

const ACCEPTED = 'PASS with 1 FAIL accepted by --baseline';

it(
  'a FAIL --baseline accepts reads as accepted in every report and the job summary',
  SIDE_BY_SIDE,
  async () => {
    const server = await startReferenceServer({ ...SCALED, fault: 'missing-token-accepted' });
    try {
      const { file, env } = profileFor(server);
      const dir = tmp();
      const baseline = join(dir, 'baseline.json');
      const summary = join(dir, 'step-summary.md');
      writeFileSync(baseline, JSON.stringify({ 'AUTH-BEARER-MISSING': 'FAIL' }));
      writeFileSync(summary, '');
      const reportDir = join(dir, 'reports');
      const run = await harness(
        [
          'conformance',
          '--profile',
          file,
          '--report-dir',
          reportDir,
          '--only',
          'bearer',
          '--baseline',
          baseline,
        ],
        { ...env, GITHUB_STEP_SUMMARY: summary },
      );
      expect(run.status, run.stderr).toBe(0);
      expect(run.stdout).toMatch(/^FAIL\s+AUTH-BEARER-MISSING/m);
      const read = (name: string) => readFileSync(join(reportDir, 'latest', name), 'utf8');
      const html = read('conformance.html');
      expect(html).toMatch(new RegExp(`<title>[^<]*: ${ACCEPTED} \\(`));
      expect(html).toContain(
        `<span class="outcome">PASS</span><span class="detail">with 1 FAIL accepted by --baseline</span>`,
      );
      expect(read('conformance.md')).toContain(`## ✅ harness conformance: ${ACCEPTED}\n`);
      expect(read('index.html')).toContain(`<span class="outcome">${ACCEPTED}</span>`);
      expect(readFileSync(summary, 'utf8')).toContain(`## ✅ harness conformance: ${ACCEPTED}\n`);
      const junit = read('conformance.xml');
      expect(junit).toMatch(/<testsuites [^>]*failures="0"/);
      expect(junit).toMatch(
        /name="AUTH-BEARER-MISSING: [^"]*"[^>]*>\n\s*<system-out>FAIL accepted by --baseline: /,
      );
      const json = JSON.parse(read('conformance.json'));
      expect(json.gate).toEqual({
        strict: false,
        requireCertifiable: false,
        baseline: { 'AUTH-BEARER-MISSING': 'FAIL' },
      });
      for (const text of [html, read('conformance.md'), read('index.html'), readFileSync(summary, 'utf8')]) {
        expect(text).not.toMatch(/(harness conformance|<title>Conformance)[^\n]*: FAIL/);
      }
    } finally {
      await server.close();
    }
  },
);
