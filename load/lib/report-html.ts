// The load summary as one self-contained HTML page: the verdict table, then an admitted/limited chart per phase
// (inline SVG, no scripts, nothing fetched). Pure TypeScript, shared by handleSummary and the harness CLI.
import { describeLimit, judge, type LoadSummary, type PhaseResult, perSecond } from './verdict.ts';

const esc = (s: string): string =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const STYLE = `body{font:14px/1.45 system-ui,sans-serif;margin:24px;color:#1d2330;background:#f6f7f9}
h1{font-size:20px;margin:0 0 4px}h2{font-size:15px;margin:24px 0 6px}.muted{color:#5b6475}
table{border-collapse:collapse;background:#fff;width:100%}th,td{border:1px solid #d9dde5;padding:5px 8px;text-align:left}
td.n{text-align:right;font-variant-numeric:tabular-nums}.ok{color:#17803d;font-weight:600}.bad{color:#c0262d;font-weight:600}
.chart{background:#fff;border:1px solid #d9dde5;padding:8px;margin-bottom:8px}.legend span{margin-right:14px}
.sw{display:inline-block;width:10px;height:10px;margin-right:4px;vertical-align:middle}`;

const WIDTH = 860;
const HEIGHT = 160;

const chart = (result: PhaseResult): string => {
  const { admitted, limited } = result.slots;
  const slots = Math.max(admitted.length, 1);
  const limitPerSlot = (result.plan.limit.count * result.plan.slotMs) / result.plan.limit.windowMs;
  const top = Math.max(1, limitPerSlot, ...admitted.map((a, i) => a + (limited[i] ?? 0)));
  const bar = WIDTH / slots;
  const y = (v: number) => HEIGHT - (v / top) * HEIGHT;
  const bars = admitted.map((a, i) => {
    const l = limited[i] ?? 0;
    const x = (i * bar).toFixed(1);
    const w = Math.max(1, bar - 1).toFixed(1);
    return `<rect x="${x}" y="${y(a).toFixed(1)}" width="${w}" height="${(HEIGHT - y(a)).toFixed(1)}" fill="#2f9e5b"><title>slot ${i}: ${a} admitted</title></rect><rect x="${x}" y="${y(a + l).toFixed(1)}" width="${w}" height="${(y(a) - y(a + l)).toFixed(1)}" fill="#d9534f"><title>slot ${i}: ${l} limited</title></rect>`;
  });
  const line = y(limitPerSlot).toFixed(1);
  const unit = result.plan.slotMs === 1000 ? 'second' : `${result.plan.slotMs / 1000} s`;
  return `<div class="chart"><div class="muted">${esc(result.plan.name)}: requests per ${unit} (dashed: SPEC.md limit per ${unit})</div>
<svg viewBox="0 0 ${WIDTH} ${HEIGHT + 2}" width="100%" height="${HEIGHT + 2}" role="img" aria-label="admitted and limited per ${unit}">${bars.join('')}<line x1="0" x2="${WIDTH}" y1="${line}" y2="${line}" stroke="#1d2330" stroke-dasharray="6 4"/></svg>
<div class="legend"><span><i class="sw" style="background:#2f9e5b"></i>admitted</span><span><i class="sw" style="background:#d9534f"></i>429</span></div></div>`;
};

const row = (result: PhaseResult): string => {
  const { plan } = result;
  const verdict = judge(result);
  const ra =
    result.retryAfterValid === undefined ? 'no 429' : `${(result.retryAfterValid * 100).toFixed(0)} %`;
  return `<tr><td>${esc(plan.name)}</td><td>${esc(plan.endpoints.join(', '))}</td><td>${esc(describeLimit(plan))}</td>
<td class="n">${perSecond(result.offered, plan).toFixed(2)}/s</td><td class="n">${perSecond(result.admitted, plan).toFixed(2)}/s</td>
<td class="n">${perSecond(result.limited, plan).toFixed(2)}/s</td><td class="n">${ra}</td>
<td class="${verdict.ok ? 'ok' : 'bad'}">${verdict.ok ? 'PASS' : 'FAIL'}: ${esc(verdict.message)}</td></tr>`;
};

export const summaryHtml = (summary: LoadSummary): string => {
  const failed = summary.phases.filter((p) => !judge(p).ok).length;
  // Failures first, as everywhere in harness's reports.
  const ordered = [...summary.phases].sort((a, b) => Number(judge(a).ok) - Number(judge(b).ok));
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>harness load: ${esc(summary.target)}</title><style>${STYLE}</style></head><body>
<h1>Rate-limit load probe</h1>
<div class="muted">${esc(summary.target)} · ${esc(summary.generatedAt)} · ${summary.instances} k6 instance${summary.instances === 1 ? '' : 's'}</div>
<p class="${failed === 0 ? 'ok' : 'bad'}">${failed === 0 ? 'Every phase passed' : `${failed} of ${summary.phases.length} phases failed`}</p>
<table><thead><tr><th>phase</th><th>endpoint</th><th>SPEC.md limit</th><th>offered</th><th>admitted/s</th><th>429/s</th><th>Retry-After ok</th><th>verdict</th></tr></thead>
<tbody>${ordered.map(row).join('\n')}</tbody></table>
<h2>Admitted and limited over time</h2>
${ordered.map(chart).join('\n')}
</body></html>`;
};
