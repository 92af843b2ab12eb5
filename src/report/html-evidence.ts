// Evidence as a reader of the HTML report sees it: each exchange like an HTTP transcript, the refresh that preceded a
// retry (SPEC.md §5 rule 4) nested under it. Everything here came from the server under test: the template escapes it.
import { html, joinMarkup, type Markup, trusted } from '../../core/markup.ts';
import type { Evidence } from '../client/index.ts';

/**
 * The values a check's message names as what it found, for the evidence to mark where the server sent them:
 * strings it quotes ("bearer", 'spend #3') and the value after "is" (`expires_in is 7200`). What it names as
 * expected ("not the integer 3600", `not "Bearer"`) is left out: a faithful header carrying it is no offence.
 */
export const offendingValues = (message: string): string[] => {
  const found = [...message.matchAll(/"((?:[^"\\]|\\.)+)"|'([^']+)'|\bis (-?\d+(?:\.\d+)?)\b/g)]
    .filter((m) => !/\bnot (?:the \w+ )?$/.test(message.slice(0, m.index)))
    .map((m) => m[1] ?? m[2] ?? m[3]!);
  return [...new Set(found)];
};

/** Evidence of this many exchanges or fewer opens when it has values to mark. */
const OPEN_UP_TO = 3;

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** `text` with each whole occurrence of a value in <mark>: every part escaped by the template first. */
const marked = (text: string, values: readonly string[]): Markup => {
  if (values.length === 0) return html`${text}`;
  const pattern = new RegExp(`(?<![\\w.])(${values.map(escapeRegExp).join('|')})(?![\\w.])`);
  return html`${text.split(pattern).map((part, i) => (i % 2 === 1 ? html`<mark>${part}</mark>` : part))}`;
};

/** A request or response as a transcript; `values` are marked in a response's header values and body. */
const message = (
  startLine: Markup,
  headers: Readonly<Record<string, string>>,
  body: string | undefined,
  values: readonly string[] = [],
): Markup => {
  const lines = Object.entries(headers).map(([name, value]) => html`\n${name}: ${marked(value, values)}`);
  return html`<pre class="http">${startLine}${lines}${body === undefined ? '' : html`\n\n${marked(body, values)}`}</pre>`;
};

const exchange = (evidence: Evidence, heading: string, values: readonly string[]): Markup => {
  const { request, response, error, refresh } = evidence;
  return html`<div class="exchange">
<div class="exchange-head"><span class="exchange-label">${heading}</span><span class="muted">${evidence.startedAt} · ${Math.round(evidence.durationMs)} ms</span></div>
<div class="label">Request</div>
${message(html`<b>${request.method} ${request.url}</b>`, request.headers, request.body)}
${
  response === undefined
    ? ''
    : html`<div class="label">Response</div>
${message(html`<b class="${response.status >= 400 ? 'status-bad' : 'status-ok'}">HTTP ${response.status}</b>`, response.headers, response.body, values)}`
}
${error === undefined ? '' : html`<div class="label">Error</div><pre class="http error">${error.kind}: ${error.message}</pre>`}
${
  refresh === undefined
    ? ''
    : html`<details class="refresh"><summary>Retried after a token refresh (§5 rule 4)</summary>
${exchange(refresh.rejected, 'Rejected with the old token', values)}
${exchange(refresh.token, 'Fresh token fetched', values)}
</details>`
}
</div>`;
};

/** `values`: what the check's message says it found (offendingValues), marked wherever a response carries it. */
export const evidenceHtml = (evidence: readonly Evidence[], values: readonly string[] = []): Markup => {
  if (evidence.length === 0) return html``;
  const items = evidence.map((e, i) => exchange(e, e.label ?? `Exchange ${i + 1}`, values));
  const noun = evidence.length === 1 ? 'exchange' : 'exchanges';
  // Open where it marks what the message names and is short enough to read at once.
  const open = values.length > 0 && evidence.length <= OPEN_UP_TO;
  return html`<details class="evidence"${trusted(open ? ' open' : '')}><summary>Evidence: ${evidence.length} ${noun}</summary>
${joinMarkup(items, '\n')}
</details>`;
};
