// index.html is the page to open first: the verdict coloured as the exit code reads it, the counts, what needs
// attention linked into the verdict page, and each file with what it is for, every report-borne string escaped.
import { describe, expect, it } from 'vitest';
import { runIndex } from '../../src/report/run-index.ts';

const HOSTILE = '<img src=x onerror=alert(1)>';

const page = runIndex({
  title: 'harness conformance: https://api.example.test',
  verdict: 'FAIL',
  grade: 'FAIL',
  counts: { FAIL: 1, WARN: 1, PASS: 7, SKIP: 0 },
  coverage: 'all 9 checks ran',
  certifiable: { yes: false, why: ['profile sets the token lifetime to 5 s'] },
  entries: [
    { id: 'LIMIT-EXECUTE', grade: 'FAIL', title: HOSTILE, href: 'conformance.html#check-LIMIT-EXECUTE' },
    { id: 'AUTH-NO-STORE', grade: 'WARN', title: 'no-store', href: 'conformance.html#check-AUTH-NO-STORE' },
  ],
  files: ['conformance.json', 'load-transactions.html', 'conformance.html', 'index.html', HOSTILE],
});

describe('index.html', () => {
  it('leads with the verdict badge, coloured by its grade, then the coverage and the counts', () => {
    expect(page).toContain('<header class="card g-FAIL">');
    expect(page).toContain('<p class="verdict"><span class="outcome">FAIL</span></p>');
    expect(page).toContain('<p class="coverage">all 9 checks ran</p>');
    expect(page).toContain('<span class="badge g-FAIL big">FAIL 1</span>');
    expect(page).toContain('<span class="badge g-SKIP zero big">SKIP 0</span>');
    expect(page).toContain(
      'Certifiable: no</span></p><div class="reasons">Why this run cannot certify the target:<ul><li>profile sets the token lifetime to 5 s</li></ul></div>',
    );
  });

  it('links each check that needs attention into the verdict page', () => {
    expect([...page.matchAll(/<a class="id mono" href="([^"]+)">/g)].map((m) => m[1])).toEqual([
      'conformance.html#check-LIMIT-EXECUTE',
      'conformance.html#check-AUTH-NO-STORE',
    ]);
    expect(page).toContain('Needs attention (2)');
  });

  it("tells the verdict page from k6's dashboard, and lists the verdict page first", () => {
    const files = [...page.matchAll(/<li[^>]*><a href="([^"]+)">[^<]*<\/a> <span class="muted">— ([^<]*)</g)];
    expect(files.map((m) => [m[1], m[2]])).toEqual([
      ['conformance.html', 'the verdict: every check with its evidence and how to reproduce it'],
      [
        'load-transactions.html',
        'k6&#39;s own web dashboard: throughput and latency as k6 saw them, no verdict',
      ],
      ['conformance.json', 'the whole result, for tools (harness compare, harness trend)'],
    ]);
    expect(page).not.toContain('href="index.html"');
  });

  it('says so when nothing needs attention', () => {
    const calm = runIndex({
      title: 't',
      verdict: 'PASS',
      grade: 'PASS',
      counts: { PASS: 3 },
      entries: [],
      files: [],
    });
    expect(calm).toContain('Needs attention (0)');
    expect(calm).toContain('Nothing failed, warned or went unverified.');
  });

  it('escapes every string a report carries', () => {
    expect(page).not.toContain('<img');
    expect(page).toContain('&lt;img src=x onerror=alert(1)&gt;');
  });
});
