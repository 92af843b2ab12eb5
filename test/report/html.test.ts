import { describe, expect, it } from 'vitest';
import { formatDuration, toHtml } from '../../src/report/html.ts';
import type { CheckResult } from '../../src/runner/types.ts';
import { CONVENTIONS, citeConvention } from '../../src/spec/index.ts';
import { BURST_REFUSED_EARLY, FIXTURE, FIXTURE_CHECKS, reportOf } from './fixture.ts';

const html = toHtml(FIXTURE);
const position = (text: string, within = html): number => {
  const at = within.indexOf(text);
  if (at === -1) throw new Error(`${text} not in the page`);
  return at;
};

describe('toHtml', () => {
  it('is one complete document', () => {
    expect(html.startsWith('<!DOCTYPE html>\n<html lang="en">')).toBe(true);
    expect(html.trimEnd().endsWith('</html>')).toBe(true);
    expect(html).toContain('<meta charset="utf-8">');
  });

  it("ends with a glossary of every grade and of the probe's request names, before the footer", () => {
    const glossary = html.slice(html.indexOf('<details class="glossary">'), html.indexOf('<footer>'));
    expect(glossary).toContain("<summary>What the grades and the probe's request names mean</summary>");
    for (const word of ['bucket', 'spend #n', 'edge poll #n', 'fresh #n'])
      expect(glossary).toContain(`<dt>${word}</dt>`);
    for (const grade of ['ERROR', 'FAIL', 'INCONCLUSIVE', 'WARN', 'SKIP', 'INFO', 'PASS'])
      expect(glossary).toMatch(new RegExp(`<dt class="${grade}">${grade}</dt><dd>[^<]+</dd>`));
  });

  it('summarises the run in the header', () => {
    const header = html.slice(position('<header'), position('</header>'));
    expect(header).toContain('Certifiable: no');
    for (const reason of FIXTURE.notCertifiable) expect(header).toContain(`<li>${reason}</li>`);
    for (const text of ['FAIL 2', 'INCONCLUSIVE 1', 'WARN 1', 'SKIP 1', 'INFO 1', 'PASS 4']) {
      expect(header).toContain(text);
    }
    for (const text of [
      'https://api.example.test',
      'harness 0.1.0',
      '2026-11-21T23:45:12.000Z',
      '1 min 52 s',
    ]) {
      expect(header).toContain(text);
    }
    const certifiable = toHtml({ ...FIXTURE, certifiable: true, notCertifiable: [] });
    expect(certifiable).toContain('Certifiable: yes');
    expect(certifiable).not.toContain('<ul>');
  });

  it('puts failures first, across sections and within them', () => {
    const order = [
      'ERROR-BAD-SCOPE',
      'LIMIT-ADMITS-SCHEDULE',
      'ENDPOINT-POST-API-RULES-RERUN',
      'AUTH-TOKEN-TYPE',
    ];
    const at = order.map((id) => position(`id="check-${id}"`));
    expect(at).toEqual([...at].sort((a, b) => a - b));
    // A PASS that ran before a FAIL of the same section still comes after it.
    const swapped = reportOf([FIXTURE_CHECKS[6]!, FIXTURE_CHECKS[5]!]);
    const page = toHtml(swapped);
    expect(position('check-LIMIT-ADMITS-SCHEDULE', page)).toBeLessThan(
      position('check-LIMIT-RETRY-AFTER', page),
    );
    // Sections without trouble come last.
    expect(position('<section id="sec-9">')).toBeGreaterThan(position('<section id="sec-8">'));
  });

  it('shows each check with its clause, quote, message, evidence and repro', () => {
    const start = position('id="check-ERROR-BAD-SCOPE"');
    const card = html.slice(start, html.indexOf('</details>\n</section>', start));
    expect(card).toContain('class="badge g-FAIL"');
    expect(card).toContain('§7');
    expect(card).toContain('<blockquote>400 Bad Request | On the token request');
    expect(card).toContain('a malformed scope got 500, not 400');
    expect(card).toContain('<b>POST https://auth.example.test/oauth2/token</b>');
    expect(card).toContain('content-type: application/x-www-form-urlencoded');
    expect(card).toContain('<b class="status-ok">HTTP 200</b>');
    expect(card).toContain('client_secret=[REDACTED]');
    expect(card).toContain('<summary>Reproduce</summary><pre>curl -sS');
    expect(html).toContain('Retried after a token refresh');
    expect(html).toContain('timeout: no response within 10000 ms');
  });

  it('cites the RFC under the quote of a check that follows a convention', () => {
    const noStore: CheckResult = { ...FIXTURE_CHECKS[1]!, ...citeConvention(CONVENTIONS.tokenNoStore) };
    const page = toHtml(reportOf([noStore]));
    expect(page).toContain('<small>RFC 6749 §5.1</small></blockquote>');
    expect(page).not.toContain('<small>SPEC.md');
  });

  it('escapes everything the server or the checks supplied', () => {
    const evil = '<script>alert("x")</script>';
    const check: CheckResult = {
      ...FIXTURE_CHECKS[4]!,
      id: 'EVIL-1',
      title: evil,
      message: evil,
      quote: evil,
      tags: [evil],
      repro: [evil],
      evidence: [
        {
          label: evil,
          request: { method: 'GET', url: `https://x.test/${evil}`, headers: { [evil]: evil }, body: evil },
          response: { status: 500, headers: { 'x-evil': evil }, body: evil },
          startedAt: '2026-11-21T23:45:12.000Z',
          durationMs: 1,
        },
      ],
    };
    const page = toHtml({ ...reportOf([check]), notCertifiable: [evil], command: evil });
    expect(page).not.toContain('<script');
    expect(page).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
  });

  it('loads nothing from anywhere', () => {
    expect(html).not.toMatch(/\bsrc\s*=/i);
    expect(html).not.toMatch(/<link\b/i);
    expect(html).not.toMatch(/@import|url\(/i);
    const hrefs = [...html.matchAll(/\bhref\s*=\s*"([^"]*)"/gi)].map((m) => m[1]);
    expect(hrefs.length).toBeGreaterThan(0);
    for (const href of hrefs) expect(href).toMatch(/^#/);
    // Target URLs appear, but only as text.
    expect(html).not.toMatch(/=\s*["']?https?:/i);
  });

  it('colours the header by the run verdict the exit code reads, with certifiability a badge beside it', () => {
    const headerOf = (page: string) => page.slice(position('<header', page), position('</header>', page));
    const passed = FIXTURE_CHECKS.filter((c) => c.grade === 'PASS');
    // 0 FAIL, exit 0, yet not certifiable (a CI run without --slow): green, and PASS.
    const pass = headerOf(toHtml(reportOf(passed)));
    expect(pass).toMatch(/^<header class="card g-PASS">/);
    expect(pass).toContain('<span class="outcome">PASS</span>');
    expect(pass).toContain('Certifiable: no');
    const undecided = headerOf(toHtml({ ...reportOf(passed), unverified: [passed[0]!.id] }));
    expect(undecided).toMatch(/^<header class="card g-INCONCLUSIVE">/);
    expect(undecided).toContain('<span class="outcome">NO VERDICT</span>');
    expect(headerOf(html)).toMatch(/^<header class="card g-FAIL">/);
    const certified = headerOf(toHtml({ ...FIXTURE, certifiable: true, notCertifiable: [] }));
    expect(certified).toMatch(/^<header class="card g-FAIL">/);
    expect(certified).toContain('Certifiable: yes');
  });

  it('renders a quoted SPEC.md table row as a table row, and `code` as code', () => {
    const row: CheckResult = { ...FIXTURE_CHECKS[1]!, quote: '| token_type | string | Always `Bearer` |' };
    const page = toHtml(reportOf([row]));
    expect(page).toContain(
      '<table class="quote"><tbody><tr><td>token_type</td><td>string</td><td>Always <code>Bearer</code></td></tr></tbody></table>',
    );
    expect(page).not.toContain('| token_type');
    const table = '| Field | Type |\n|---|---|\n| access_token | string |';
    expect(toHtml(reportOf([{ ...row, quote: table }]))).toContain(
      '<thead><tr><th>Field</th><th>Type</th></tr></thead><tbody><tr><td>access_token</td><td>string</td></tr></tbody>',
    );
  });

  it("draws a limit FAIL's requests over time: one mark per request, the stretch and the bound", () => {
    const start = position('id="check-LIMIT-ADMITS-SCHEDULE"');
    const card = html.slice(start, html.indexOf('</details>\n</section>', start));
    const svg = card.slice(position('<svg', card), position('</svg>', card));
    expect(svg.match(/<line class="req /g)).toHaveLength(BURST_REFUSED_EARLY.requests.length);
    expect(svg.match(/<line class="req refused/g)).toHaveLength(21);
    expect(svg.match(/<line class="req ok counted/g)).toHaveLength(100);
    expect(svg).toContain('<rect class="stretch"');
    expect(svg).toContain('429 with at most 100 admitted before it (a limiter needs 120)');
    // Axes: time from the probe's first request (here a minute, in seconds) and request counts.
    expect(svg).toContain('>-20 s</text>');
    expect(svg).toContain('>100</text>');
    expect(svg).toContain("time from the probe's first request");
    expect(card).toContain('A 429 with at most 100 requests admitted in the window before it');
    // Only checks that carry a timeline get a picture.
    expect(html.match(/<svg/g)).toHaveLength(1);
  });

  it('formats durations for people', () => {
    expect(formatDuration(12.4)).toBe('12 ms');
    expect(formatDuration(2500)).toBe('2.5 s');
    expect(formatDuration(59_960)).toBe('1 min 0 s');
    expect(formatDuration(119_600)).toBe('2 min 0 s');
    expect(formatDuration(111_512)).toBe('1 min 52 s');
    expect(formatDuration(3_900_000)).toBe('1 h 5 min');
  });
});
