// index.html at the top of a certification archive: what a certifier opens first once it is unpacked. Whether the
// run certifies the target (a badge, and why not), who signed it (the public key's fingerprint, to hold against the
// one the certifier publishes), the verdicts as the manifest states them, then a link to every file, the verdict
// pages first. The target's URL and the reasons come from the run: the template escapes them.
import { html, joinMarkup, trusted } from '../../core/markup.ts';
import { STYLE } from '../report/html-style.ts';
import type { ManifestBody } from './manifest.ts';

export const INDEX_PAGE = 'index.html';

/** The pages a person reads first: the conformance report, then the load verdicts. */
const FIRST = [/^conformance\/conformance\.html$/, /^load\/load-[^/]*-summary\.html$/];
const rank = (path: string): number => {
  const at = FIRST.findIndex((pattern) => pattern.test(path));
  return at < 0 ? FIRST.length : at;
};

const ARCHIVE_STYLE = `.files{padding-left:20px}.files li{margin:3px 0;overflow-wrap:anywhere}
.files li.verdict-page a{font-weight:700}h2{margin-top:24px}`;

/** `fingerprint`: SHA-256 of the signing key's public half, as the manifest's signer names it. */
export const archiveIndex = (body: ManifestBody, paths: readonly string[], fingerprint: string): string => {
  const ordered = [...paths].sort((a, b) => rank(a) - rank(b));
  const yes = body.certifiable;
  const links = ordered.map(
    (path) =>
      html`<li${trusted(rank(path) < FIRST.length ? ' class="verdict-page"' : '')}><a href="${path}">${path}</a></li>`,
  );
  const meta = [
    ['Conformance', body.conformance.summary],
    ['Load', body.load.summary],
    ['Run', `${body.startedAt} to ${body.finishedAt}, harness ${body.harness.version}`],
  ].map(([name, value]) => html`<dt>${name}</dt><dd>${value}</dd>`);
  return `${html`<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>harness certification: ${body.target.base_url}: ${yes ? 'certifiable' : 'not certifiable'}</title>
<style>${trusted(STYLE + ARCHIVE_STYLE)}</style>
</head><body><main>
<header class="card g-${yes ? 'PASS' : 'FAIL'}">
<h1>harness certification: <span class="mono">${body.target.base_url}</span></h1>
<p class="verdict"><span class="outcome">${yes ? 'CERTIFIABLE' : 'NOT CERTIFIABLE'}</span></p>
<dl class="meta">${meta}<dt>Signed by</dt><dd>Ed25519 key, public key SHA-256 <code class="fingerprint">${fingerprint}</code></dd></dl>
${yes ? '' : html`<div class="reasons">Why this run cannot certify the target:<ul>${body.notCertifiable.map((reason) => html`<li>${reason}</li>`)}</ul></div>`}
</header>
<p><code>manifest.json</code> lists every file with its SHA-256, and <code>manifest.json.sig</code> signs it:
<code>npx --no-install harness verify ARCHIVE --public-key KEY</code> checks both, and prints the fingerprint above.</p>
<h2>Files</h2>
<ul class="files">${joinMarkup(links, '\n')}</ul>
</main></body></html>`}\n`;
};
