// index.html at the top of a certification archive: what a certifier opens first once it is unpacked. The verdicts
// as the manifest states them, then a link to every file, the verdict pages first.
import { escapeAttr, escapeText } from '../report/escape.ts';
import type { ManifestBody } from './manifest.ts';

export const INDEX_PAGE = 'index.html';

/** The pages a person reads first: the conformance report, then the load verdicts. */
const FIRST = [/^conformance\/conformance\.html$/, /^load\/load-[^/]*-summary\.html$/];
const rank = (path: string): number => {
  const at = FIRST.findIndex((pattern) => pattern.test(path));
  return at < 0 ? FIRST.length : at;
};

export const archiveIndex = (body: ManifestBody, paths: readonly string[]): string => {
  const ordered = [...paths].sort((a, b) => rank(a) - rank(b));
  const certifiable = body.certifiable
    ? 'yes'
    : `no: ${body.notCertifiable.map((reason) => escapeText(reason)).join('; ')}`;
  const links = ordered.map((path) => `<li><a href="${escapeAttr(path)}">${escapeText(path)}</a></li>`);
  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>harness certification: ${escapeText(body.target.base_url)}</title>`,
    '<style>body{font:16px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem}' +
      'dt{font-weight:600}dd{margin:0 0 .5rem;overflow-wrap:anywhere}</style>',
    '</head><body>',
    `<h1>harness certification: ${escapeText(body.target.base_url)}</h1>`,
    '<dl>',
    `<dt>Certifiable</dt><dd>${certifiable}</dd>`,
    `<dt>Conformance</dt><dd>${escapeText(body.conformance.summary)}</dd>`,
    `<dt>Load</dt><dd>${escapeText(body.load.summary)}</dd>`,
    `<dt>Run</dt><dd>${escapeText(body.startedAt)} to ${escapeText(body.finishedAt)}, harness ${escapeText(body.harness.version)}</dd>`,
    '</dl>',
    '<p><code>manifest.json</code> lists every file with its SHA-256, and <code>manifest.json.sig</code> signs it: ' +
      '<code>npx --no-install harness verify ARCHIVE --public-key KEY</code> checks both.</p>',
    '<h2>Files</h2>',
    `<ul>${links.join('')}</ul>`,
    '</body></html>',
    '',
  ].join('\n');
};
