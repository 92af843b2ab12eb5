// index.html in a run's folder: what to open first. The verdict page leads (conformance.html, or load's summary
// page), then every other file of the run (k6's dashboard, JUnit, JSON, the runners' summaries), each a link.
import { escapeAttr, escapeText } from './escape.ts';

export const RUN_INDEX = 'index.html';

const VERDICT_PAGES = [/^conformance\.html$/, /-summary\.html$/];
const rank = (name: string): number => {
  const at = VERDICT_PAGES.findIndex((pattern) => pattern.test(name));
  return at < 0 ? VERDICT_PAGES.length : at;
};

/** `files`: names relative to the run's folder; `coverage`: how much the verdict covers, beside it. */
export const runIndex = (
  title: string,
  verdict: string,
  files: readonly string[],
  coverage?: string,
): string => {
  const links = [...new Set(files)]
    .filter((name) => name !== RUN_INDEX)
    .sort((a, b) => rank(a) - rank(b))
    .map((name) => `<li><a href="${escapeAttr(name)}">${escapeText(name)}</a></li>`);
  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeText(title)}</title>`,
    '<style>body{font:16px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem}' +
      'li{overflow-wrap:anywhere}</style>',
    '</head><body>',
    `<h1>${escapeText(title)}</h1>`,
    `<p>${escapeText(verdict)}</p>`,
    ...(coverage === undefined ? [] : [`<p>${escapeText(coverage)}</p>`]),
    `<ul>${links.join('')}</ul>`,
    '</body></html>',
    '',
  ].join('\n');
};
