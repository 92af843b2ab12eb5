import { describe, expect, it } from 'vitest';
import type { GradedPhase } from '../../src/report/junit.ts';
import { toMarkdown } from '../../src/report/markdown.ts';
import { mdCode, mdText } from '../../src/report/markdown-text.ts';
import { artifactsUrl, loadMarkdown } from '../../src/report/step-summary.ts';
import { gradeRank } from '../../src/runner/grades.ts';
import { CONVENTIONS, citeConvention } from '../../src/spec/index.ts';
import { FIXTURE, FIXTURE_CHECKS, reportOf } from './fixture.ts';

/** Rows of a grade table: a status mark, then the grade. */
const tableRows = (markdown: string): string[] =>
  markdown.split('\n').filter((l) => /^\| \S+ [A-Z]+ \|/.test(l));
const gradeOf = (row: string): string => row.split(' | ')[0]!.split(' ').at(-1)!;
/** Cell separators: pipes not escaped with a backslash. */
const separators = (line: string): number => line.match(/(?<!\\)\|/g)?.length ?? 0;

describe('toMarkdown', () => {
  it('puts the verdict with its mark, then coverage, then FAIL, INCONCLUSIVE and WARN rows; the rest folded', () => {
    const markdown = toMarkdown(FIXTURE, { reportFiles: ['conformance.json', 'conformance.md'] });
    expect(markdown.split('\n').slice(0, 3)).toEqual([
      '## ❌ harness conformance: FAIL',
      '',
      '**Coverage:** 9 of 10 checks ran; 1 skipped: 1 because the profile has no clients.restricted',
    ]);
    const rows = tableRows(markdown);
    const grades = rows.map(gradeOf);
    expect(grades).toEqual(['FAIL', 'FAIL', 'INCONCLUSIVE', 'WARN', 'SKIP', 'INFO']);
    expect(rows[0]).toMatch(/^\| ❌ FAIL \| /);
    expect([...grades].sort((a, b) => gradeRank(a as 'FAIL') - gradeRank(b as 'FAIL'))).toEqual(grades);
    // The rows that need no attention come after every one that does, each kind inside its own <details>.
    const firstFold = markdown.indexOf('<details>');
    expect(markdown.indexOf(rows[3]!)).toBeLessThan(firstFold);
    for (const quiet of [rows[4]!, rows[5]!]) {
      const at = markdown.indexOf(quiet);
      expect(markdown.lastIndexOf('<details>', at)).toBeGreaterThan(markdown.lastIndexOf('</details>', at));
    }
    expect(markdown).toContain('<details><summary>1 observation (INFO, not graded)</summary>');
    expect(markdown).toContain('<details><summary>1 check skipped</summary>');
    const passing = FIXTURE_CHECKS.filter((c) => c.grade === 'PASS');
    expect(markdown).toContain(`<summary>${passing.length} checks passed</summary>`);
    const summaryAt = markdown.indexOf('### Summary');
    expect(summaryAt).toBeGreaterThan(markdown.indexOf('<summary>4 checks passed'));
    const summary = markdown.slice(summaryAt);
    expect(summary).toContain('- **Certifiable:** no\n  - AUTH-FORBIDDEN was skipped');
    expect(summary).toContain('2 FAIL, 1 INCONCLUSIVE, 1 WARN, 1 SKIP, 1 INFO, 4 PASS');
    expect(summary).toContain('`conformance.json`, `conformance.md`');
  });

  it('shows the reproduction of each FAIL open, in a fence nothing inside can close', () => {
    const [failing] = FIXTURE_CHECKS.filter((c) => c.grade === 'FAIL');
    const repro = ['curl -sS ```x``` "$ACCESS_TOKEN"'];
    const markdown = toMarkdown(reportOf([{ ...failing!, repro }]));
    expect(markdown).toContain(
      `**Reproduce \`${failing!.id}\`:**\n\n\`\`\`\`sh\ncurl -sS \`\`\`x\`\`\` "$ACCESS_TOKEN"\n\`\`\`\``,
    );
    // Not folded away: the fence is outside every <details>.
    const fence = markdown.indexOf('````sh');
    expect(markdown.lastIndexOf('<details>', fence)).toBeLessThanOrEqual(
      markdown.lastIndexOf('</details>', fence),
    );
  });

  it('keeps text from the server inert: no markup, no extra table cells, one line', () => {
    const hostile = '<img src=x onerror=alert(1)> | **bold** [link](https://x.example.test)\nsecond & line';
    const [failing] = FIXTURE_CHECKS.filter((c) => c.grade === 'FAIL');
    const markdown = toMarkdown(reportOf([{ ...failing!, message: hostile }]));
    const [line] = tableRows(markdown);
    expect(separators(line!)).toBe(5);
    expect(line).not.toMatch(/(?<!\\)</);
    expect(line).not.toMatch(/(?<!\\)\*\*/);
    expect(line).toContain('second & line');
    expect(mdText('a_b`c')).toBe('a_b\\`c');
    expect(mdText('&lt;b&gt; _x_ ~~y~~ \\* <!-- z')).toBe(
      '\\&lt;b\\&gt; \\_x\\_ \\~\\~y\\~\\~ \\\\\\* \\<!-- z',
    );
  });

  it('writes prose as it reads in a CI log: no backslash where Markdown would not act', () => {
    const message =
      "more admitted than SPEC.md allows (30 per minute (2000 ms window)): after 'edge poll #1' got 429 " +
      '(sent +6045 ms, answered -680 ms); access_token {"a":[1]} 100% + 2!';
    const [failing] = FIXTURE_CHECKS.filter((c) => c.grade === 'FAIL');
    const markdown = toMarkdown(reportOf([{ ...failing!, title: 'The access_token (§2) #1', message }]));
    // `#1` would link issue 1: an invisible U+200B after `#` stops that and leaves the words as they were.
    const [line] = tableRows(markdown).map((row) => row.replaceAll('\u200b', ''));
    expect(line).toContain(message);
    expect(line).toContain('The access_token (§2) #1');
    expect(markdown).not.toContain('\\');
  });

  it("breaks GitHub's own syntax, which it finds after Markdown and no backslash stops, with an invisible U+200B", () => {
    const cases: [string, string][] = [
      ['ask @octocat', 'ask @\u200boctocat'],
      ['ping @acme/security', 'ping @\u200bacme/security'],
      ['see owner/repo#12 and #3, GH-4', 'see owner/repo#\u200b12 and #\u200b3, GH\u200b-4'],
      [':rocket: :a:b:', ':\u200brocket: :\u200ba:\u200bb:'],
      ['mail a@b.example.test', 'mail a@\u200bb.example.test'],
      [
        'go www.example.test or https://x.example.test',
        'go www\u200b.example.test or https:\u200b//x.example.test',
      ],
    ];
    for (const [text, inert] of cases) expect(mdText(text, 'prose')).toBe(inert);
    // Still readable: without the invisible breaks each is the text as sent.
    for (const [text] of cases) expect(mdText(text, 'prose').replaceAll('\u200b', '')).toBe(text);
    // Neither a colon in a time nor a `#` before a word gets anything it does not need.
    expect(mdText('at 17:26 in #main')).toBe('at 17:26 in #main');
  });

  it('neutralises GFM strikethrough, images and bidi controls, and shows controls as the terminal does', () => {
    expect(mdText('~x~ ![img](http://i.example.test/a.png)', 'prose')).toBe(
      '\\~x\\~ !\\[img\\](http:\u200b//i.example.test/a.png)',
    );
    expect(mdText('txt\u202eexe.sh \u2066x\u0000\u009b2J')).toBe('txt\\u202eexe.sh \\u2066x\\u0000\\u009b2J');
  });

  it('makes a code span nothing inside can close or split, and a table cell it cannot break', () => {
    expect(mdCode('a``b')).toBe('```a``b```');
    expect(mdCode('`x')).toBe('`` `x ``');
    expect(mdCode('a|b @user', 'prose')).toBe('`a|b @user`');
    expect(separators(`| ${mdCode('a|b')} |`)).toBe(2);
  });

  it('names the rule each row stands on: a SPEC.md clause, or the RFC a convention check follows', () => {
    const [warning] = FIXTURE_CHECKS.filter((c) => c.grade === 'WARN');
    const [failing] = FIXTURE_CHECKS.filter((c) => c.grade === 'FAIL');
    const convention = { ...warning!, ...citeConvention(CONVENTIONS.tokenNoStore) };
    const [failRow, warnRow] = tableRows(toMarkdown(reportOf([failing!, convention])));
    expect(failRow!.split(' | ')[2]).toBe(`SPEC.md ${mdText(failing!.clause)}`);
    expect(warnRow!.split(' | ')[2]).toBe('RFC 6749 §5.1');
  });

  it("says NO VERDICT, not PASS, when a check SKIPped for the target's doing, as the CLI exits 5", () => {
    const passed = FIXTURE_CHECKS.filter((c) => c.grade === 'PASS');
    const noToken = { ...passed[0]!, id: 'AUTH-BEARER-MISSING', grade: 'SKIP' as const, message: 'no token' };
    const markdown = toMarkdown({ ...reportOf([...passed, noToken]), unverified: [noToken.id] });
    expect(markdown.split('\n')[0]).toBe(
      "## ❔ harness conformance: NO VERDICT (1 check INCONCLUSIVE or SKIPped for the target's doing)",
    );
  });

  it('says PASS when nothing needs attention', () => {
    const markdown = toMarkdown(reportOf(FIXTURE_CHECKS.filter((c) => c.grade === 'PASS')));
    expect(markdown.split('\n')[0]).toBe('## ✅ harness conformance: PASS');
    expect(tableRows(markdown)).toEqual([]);
    expect(markdown).not.toContain('artifacts');
  });
});

describe('the link to the run', () => {
  const GITHUB = {
    GITHUB_SERVER_URL: 'https://github.com',
    GITHUB_REPOSITORY: 'acme/gateway',
    GITHUB_RUN_ID: '1234567890',
  };

  it("links the job's artifacts under the verdict when GitHub's variables name them", () => {
    const url = artifactsUrl(GITHUB);
    expect(url).toBe('https://github.com/acme/gateway/actions/runs/1234567890#artifacts');
    const lines = toMarkdown(FIXTURE, { artifacts: url! }).split('\n');
    expect(lines.indexOf(`Reports and evidence: [this run's artifacts](${url})`)).toBe(4);
  });

  it('links nothing off GitHub, or when a variable is not what GitHub sets', () => {
    expect(artifactsUrl({})).toBeUndefined();
    for (const bent of [
      { GITHUB_SERVER_URL: 'javascript:alert(1)' },
      { GITHUB_SERVER_URL: 'https://github.com/x)(y' },
      { GITHUB_REPOSITORY: 'acme/gateway)[x](https://evil.example.test' },
      { GITHUB_REPOSITORY: 'acme' },
      { GITHUB_RUN_ID: '12#x' },
    ])
      expect(artifactsUrl({ ...GITHUB, ...bent }), JSON.stringify(bent)).toBeUndefined();
  });

  it('gives a load run the same mark before its heading and rows, and the same link', () => {
    const phase = { name: 'over_transactions', probe: 'transactions', message: 'admitted 2x' };
    const page = loadMarkdown(
      'transactions',
      [
        { ...phase, grade: 'PASS' },
        { ...phase, grade: 'FAIL' },
      ] as GradedPhase[],
      '2 phases: 1 FAIL, 1 PASS',
      artifactsUrl(GITHUB),
    );
    expect(page.split('\n').slice(0, 5)).toEqual([
      '## ❌ harness load: transactions',
      '',
      '2 phases: 1 FAIL, 1 PASS',
      '',
      "Reports and evidence: [this run's artifacts](https://github.com/acme/gateway/actions/runs/1234567890#artifacts)",
    ]);
    expect(page).toMatch(/\| ❌ FAIL \| `over_transactions` \|[^\n]*\n\| ✅ PASS \|/);
  });
});
