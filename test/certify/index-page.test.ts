// The certification archive's index.html: a badge saying whether the run certifies the target (and why not), the
// signer's fingerprint a certifier holds against the published one, the verdict pages linked first, all escaped.
import { describe, expect, it } from 'vitest';
import { archiveIndex } from '../../src/certify/index-page.ts';
import { BODY } from './fixture.ts';

const FINGERPRINT = 'ab'.repeat(32);
const PATHS = ['SPEC.md', 'load/load-all-summary.html', 'conformance/conformance.html', 'load/load-all.xml'];

describe('the certification index page', () => {
  it('shows a certifiable run with a green badge and the signer fingerprint', () => {
    const page = archiveIndex(BODY, PATHS, FINGERPRINT);
    expect(page).toContain('<header class="card g-PASS">');
    expect(page).toContain('<span class="outcome">CERTIFIABLE</span>');
    expect(page).toContain(`public key SHA-256 <code class="fingerprint">${FINGERPRINT}</code>`);
    expect(page).not.toContain('cannot certify');
    expect([...page.matchAll(/<li[^>]*><a href="([^"]+)">/g)].map((m) => m[1])).toEqual([
      'conformance/conformance.html',
      'load/load-all-summary.html',
      'SPEC.md',
      'load/load-all.xml',
    ]);
  });

  it('shows a run that cannot certify in red with each reason, escaped', () => {
    const page = archiveIndex(
      {
        ...BODY,
        certifiable: false,
        notCertifiable: ['ran against <script>alert(1)</script>', 'load did not complete (exit 4)'],
        target: { ...BODY.target, base_url: 'https://x.test/"><img src=x>' },
      },
      ['conformance/<b>.html'],
      FINGERPRINT,
    );
    expect(page).toContain('<header class="card g-FAIL">');
    expect(page).toContain('<span class="outcome">NOT CERTIFIABLE</span>');
    expect(page).toContain(
      '<li>ran against &lt;script&gt;alert(1)&lt;/script&gt;</li><li>load did not complete (exit 4)</li>',
    );
    expect(page).not.toMatch(/<script|<img|<b>/);
    expect(page).toContain('href="conformance/&lt;b&gt;.html"');
  });
});
