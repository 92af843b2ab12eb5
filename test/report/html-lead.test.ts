// The conformance page leads the eye: a "not PASS only" toggle that needs no script, `code` in titles as code, and
// the value a check's message names marked where the server sent it, every part still escaped.
import { describe, expect, it } from 'vitest';
import { toHtml } from '../../src/report/html.ts';
import { offendingValues } from '../../src/report/html-evidence.ts';
import { STYLE } from '../../src/report/html-style.ts';
import type { CheckResult } from '../../src/runner/types.ts';
import { FIXTURE, FIXTURE_CHECKS, reportOf } from './fixture.ts';

const page = toHtml(FIXTURE);
const typeCheck = FIXTURE_CHECKS.find((c) => c.id === 'AUTH-TOKEN-TYPE')!;
const cardOf = (html: string, id: string): string => {
  const from = html.indexOf(`id="check-${id}"`);
  return html.slice(from, html.indexOf('</details>\n</div>\n</details>', from));
};

describe('the not-PASS-only toggle', () => {
  it('is a checkbox, checked when something needs attention, that the stylesheet acts on with :has()', () => {
    expect(page).toContain(
      '<label class="only-not-pass"><input type="checkbox" id="not-pass-only" checked> Show only what is not PASS (hides 4 passing checks)</label>',
    );
    expect(STYLE).toContain('main:has(#not-pass-only:checked) .check.g-PASS');
    expect(STYLE).toContain(
      'main:has(#not-pass-only:checked) section:not(:has(.check:not(.g-PASS))){display:none}',
    );
    expect(page).not.toMatch(/<script/i);
  });

  it('starts unchecked when every check passed', () => {
    const green = toHtml(reportOf(FIXTURE_CHECKS.map((c) => ({ ...c, grade: 'PASS' }))));
    expect(green).toContain('<input type="checkbox" id="not-pass-only"> ');
  });
});

describe('titles', () => {
  it('render `backticks` as code, escaping the text first', () => {
    const titled: CheckResult = { ...typeCheck, title: 'token_type is `Bearer` <b>, `a<i>` too' };
    const html = toHtml(reportOf([titled]));
    expect(html).toContain(
      '<span>token_type is <code>Bearer</code> &lt;b&gt;, <code>a&lt;i&gt;</code> too</span>',
    );
    expect(html).not.toContain('`Bearer`');
  });
});

describe('the offending value', () => {
  it('is what the message found, not what it expected', () => {
    expect(offendingValues('token_type is "bearer", not "Bearer" as SPEC.md §2 says')).toEqual(['bearer']);
    expect(offendingValues('expires_in is 7200, not the integer 3600')).toEqual(['7200']);
    expect(offendingValues("the 429 to 'spend #3' came early")).toEqual(['spend #3']);
    expect(offendingValues('a malformed scope got 500, not 400')).toEqual([]);
  });

  it('is marked in the response of a check that needs attention, and its evidence opens', () => {
    const card = cardOf(page, 'AUTH-TOKEN-TYPE');
    expect(card).toContain('<details class="evidence" open>');
    expect(card).toContain('&quot;token_type&quot;:&quot;<mark>bearer</mark>&quot;');
    // The request is what harness sent: nothing there is the server's offence.
    expect(cardOf(page, 'AUTH-TOKEN-FORM')).not.toContain('<mark>');
  });

  it('is marked only where it stands whole, and a hostile value stays escaped', () => {
    const hostile: CheckResult = {
      ...typeCheck,
      message: 'token_type is "<img src=x>", not "Bearer"',
      evidence: [
        {
          ...typeCheck.evidence[0]!,
          response: {
            status: 200,
            headers: { 'x-note': 'x<img src=x>y <img src=x>' },
            body: '{"token_type":"<img src=x>"}',
          },
        },
      ],
    };
    const card = cardOf(toHtml(reportOf([hostile])), 'AUTH-TOKEN-TYPE');
    expect(card).not.toContain('<img');
    expect(card).toContain('x-note: x&lt;img src=x&gt;y <mark>&lt;img src=x&gt;</mark>');
    expect(card).toContain('{&quot;token_type&quot;:&quot;<mark>&lt;img src=x&gt;</mark>&quot;}');
  });
});

describe('a limit FAIL over the bound', () => {
  it('colours the admits past the bound apart, and says so in the legend', () => {
    // 5 per window; 8 admitted in the stretch, then two 429s: admits 6 to 8 are the excess.
    const over = {
      limit: { count: 5, windowMs: 1000 },
      from: 0,
      until: 900,
      claim: 'over' as const,
      counted: 8,
      bound: 5,
      requests: Array.from({ length: 10 }, (_, i) => ({
        sent: i * 100,
        answered: i * 100 + 5,
        status: i < 8 ? 200 : 429,
        counted: i < 8,
      })),
    };
    const html = toHtml(reportOf([{ ...FIXTURE_CHECKS[5]!, timeline: over }]));
    const classes = [...html.matchAll(/<line class="req ([a-z]+)/g)].map((m) => m[1]);
    expect(classes).toEqual([
      'ok',
      'ok',
      'ok',
      'ok',
      'ok',
      'excess',
      'excess',
      'excess',
      'refused',
      'refused',
    ]);
    expect(html).toContain('<i class="sw excess"></i>admitted over the limit');
    // An under claim has no excess to show.
    expect(page).not.toContain('sw excess');
  });
});
