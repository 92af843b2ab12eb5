// The terminal's `reports:` line: one folder and the page to open, however many files a run wrote.
import { describe, expect, it } from 'vitest';
import { reportsLine } from '../../src/report/reports-line.ts';

describe('reportsLine', () => {
  it("names a run's folder and its index page, whatever else it wrote, in subfolders too", () => {
    const run = '/abs/reports/2026-11-27T21-18-09Z';
    const files = ['load-all-summary.json', 'load-all.xml', 'index.html', 'runners/runner-1.json'];
    expect(reportsLine(files.map((f) => `${run}/${f}`))).toBe(`reports: ${run}/ (open index.html)`);
  });

  it('lists the names in the folder where there is no index page', () => {
    expect(reportsLine(['/r/conformance.md', '/r/conformance.xml'])).toBe(
      'reports: /r/ (conformance.md, conformance.xml)',
    );
    expect(reportsLine(['/r/a/x.json', '/r/b/y.json'])).toBe('reports: /r/ (a/x.json, b/y.json)');
    expect(reportsLine(['/x.json'])).toBe('reports: / (x.json)');
  });
});
