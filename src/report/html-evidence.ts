// Evidence as a reader of the HTML report sees it: each exchange like an HTTP transcript, the refresh that preceded a
// retry (SPEC.md §5 rule 4) nested under it. Everything here came from the server under test: the template escapes it.
import { html, joinMarkup, type Markup } from '../../core/markup.ts';
import type { Evidence } from '../client/index.ts';

const message = (
  startLine: Markup,
  headers: Readonly<Record<string, string>>,
  body: string | undefined,
): Markup => {
  const lines = Object.entries(headers).map(([name, value]) => html`\n${name}: ${value}`);
  return html`<pre class="http">${startLine}${lines}${body === undefined ? '' : html`\n\n${body}`}</pre>`;
};

const exchange = (evidence: Evidence, heading: string): Markup => {
  const { request, response, error, refresh } = evidence;
  return html`<div class="exchange">
<div class="exchange-head"><span class="exchange-label">${heading}</span><span class="muted">${evidence.startedAt} · ${Math.round(evidence.durationMs)} ms</span></div>
<div class="label">Request</div>
${message(html`<b>${request.method} ${request.url}</b>`, request.headers, request.body)}
${
  response === undefined
    ? ''
    : html`<div class="label">Response</div>
${message(html`<b class="${response.status >= 400 ? 'status-bad' : 'status-ok'}">HTTP ${response.status}</b>`, response.headers, response.body)}`
}
${error === undefined ? '' : html`<div class="label">Error</div><pre class="http error">${error.kind}: ${error.message}</pre>`}
${
  refresh === undefined
    ? ''
    : html`<details class="refresh"><summary>Retried after a token refresh (§5 rule 4)</summary>
${exchange(refresh.rejected, 'Rejected with the old token')}
${exchange(refresh.token, 'Fresh token fetched')}
</details>`
}
</div>`;
};

export const evidenceHtml = (evidence: readonly Evidence[]): Markup => {
  if (evidence.length === 0) return html``;
  const items = evidence.map((e, i) => exchange(e, e.label ?? `Exchange ${i + 1}`));
  const noun = evidence.length === 1 ? 'exchange' : 'exchanges';
  return html`<details class="evidence"><summary>Evidence: ${evidence.length} ${noun}</summary>
${joinMarkup(items, '\n')}
</details>`;
};
