import { describe, expect, it } from 'vitest';
import { escapeMarkup, html, joinMarkup, stripControl, trusted } from '../../core/markup.ts';

describe('the shared escaper', () => {
  it('strips C0 controls (but tab, LF, CR), DEL and C1 controls', () => {
    expect(stripControl('a\u0007b\u009bc\u007fd\u0000e\u0085f')).toBe('abcdef');
    expect(stripControl('tab\tline\nreturn\r')).toBe('tab\tline\nreturn\r');
    expect(escapeMarkup('\u001b[31m<b>\u009b31m')).toBe('[31m&lt;b&gt;31m');
  });

  it('keeps text outside the control ranges, astral characters included', () => {
    expect(stripControl('§8 · 5× 429 → ✓ 😀 ä')).toBe('§8 · 5× 429 → ✓ 😀 ä');
    expect(stripControl('lone \ud800 surrogate')).toBe('lone  surrogate');
  });
});

describe('the html template', () => {
  it('escapes every interpolation unless it is markup', () => {
    const evil = `<script>alert("x")</script>'`;
    const page = html`<p title="${evil}">${evil}${html`<b>${evil}</b>`}</p>`;
    expect(page.text).toBe(
      '<p title="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&#39;">' +
        '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&#39;<b>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&#39;</b></p>',
    );
  });

  it('renders lists, numbers and left-out values', () => {
    const items = ['a<', 'b'].map((x) => html`<li>${x}</li>`);
    expect(html`<ul>${items}</ul>${undefined}${false}${null}${3.5}`.text).toBe(
      '<ul><li>a&lt;</li><li>b</li></ul>3.5',
    );
    expect(joinMarkup(['<x>', trusted('<br>')], trusted(', ')).text).toBe('&lt;x&gt;, <br>');
    expect(html`${'\u0007bell'}`.text).toBe('bell');
  });
});
