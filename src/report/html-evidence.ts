// Evidence as a reader of the HTML report sees it: each exchange like an HTTP transcript, the refresh that preceded a
// retry (SPEC.md §5 rule 4) nested under it. Everything here came from the server under test, so all of it is escaped.
import type { Evidence } from '../client/index.ts';
import { escapeText as esc } from './escape.ts';

const headerLines = (headers: Readonly<Record<string, string>>): string =>
  Object.entries(headers)
    .map(([name, value]) => `${esc(name)}: ${esc(value)}`)
    .join('\n');

const message = (
  startLine: string,
  headers: Readonly<Record<string, string>>,
  body: string | undefined,
): string => {
  const head = [startLine, headerLines(headers)].filter((part) => part !== '').join('\n');
  const text = body === undefined ? head : `${head}\n\n${esc(body)}`;
  return `<pre class="http">${text}</pre>`;
};

const exchange = (evidence: Evidence, heading: string): string => {
  const { request, response, error } = evidence;
  const parts = [
    `<div class="exchange">`,
    `<div class="exchange-head"><span class="exchange-label">${esc(heading)}</span>` +
      `<span class="muted">${esc(evidence.startedAt)} · ${Math.round(evidence.durationMs)} ms</span></div>`,
    `<div class="label">Request</div>`,
    message(`<b>${esc(request.method)} ${esc(request.url)}</b>`, request.headers, request.body),
  ];
  if (response !== undefined) {
    const statusClass = response.status >= 400 ? 'status-bad' : 'status-ok';
    parts.push(
      `<div class="label">Response</div>`,
      message(`<b class="${statusClass}">HTTP ${response.status}</b>`, response.headers, response.body),
    );
  }
  if (error !== undefined) {
    parts.push(
      `<div class="label">Error</div><pre class="http error">${esc(error.kind)}: ${esc(error.message)}</pre>`,
    );
  }
  if (evidence.refresh !== undefined) {
    parts.push(
      `<details class="refresh"><summary>Retried after a token refresh (§5 rule 4)</summary>`,
      exchange(evidence.refresh.rejected, 'Rejected with the old token'),
      exchange(evidence.refresh.token, 'Fresh token fetched'),
      `</details>`,
    );
  }
  parts.push(`</div>`);
  return parts.join('\n');
};

export const evidenceHtml = (evidence: readonly Evidence[]): string => {
  if (evidence.length === 0) return '';
  const items = evidence.map((e, i) => exchange(e, e.label ?? `Exchange ${i + 1}`));
  const noun = evidence.length === 1 ? 'exchange' : 'exchanges';
  return `<details class="evidence"><summary>Evidence: ${evidence.length} ${noun}</summary>\n${items.join('\n')}\n</details>`;
};
