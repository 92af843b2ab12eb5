// The load summary as one self-contained HTML page: the verdict table, then an admitted/limited chart per phase
// (inline SVG, no scripts, nothing fetched). Pure TypeScript, shared by handleSummary and the harness CLI.
import type { LoadSummary, PhaseResult } from './evidence.ts';
import { escapeHtml as esc } from './html-escape.ts';
import { offeredAt } from './plan.ts';
import { byGrade, describeLimit, type Grade, perSecond, type Verdict } from './verdict.ts';

const STYLE = `body{font:14px/1.45 system-ui,sans-serif;margin:24px;color:#1d2330;background:#f6f7f9}
h1{font-size:20px;margin:0 0 4px}h2{font-size:15px;margin:24px 0 6px}.muted{color:#5b6475}
table{border-collapse:collapse;background:#fff;width:100%}th,td{border:1px solid #d9dde5;padding:5px 8px;text-align:left}
td.n{text-align:right;font-variant-numeric:tabular-nums}.PASS{color:#17803d;font-weight:600}.FAIL{color:#c0262d;font-weight:600}
.WARN{color:#a15c00;font-weight:600}.INCONCLUSIVE{color:#5b3fa0;font-weight:600}.note{color:#5b6475;font-size:12px}
.chart{background:#fff;border:1px solid #d9dde5;padding:8px;margin-bottom:8px}.legend span{margin-right:14px}
.sw{display:inline-block;width:10px;height:10px;margin-right:4px;vertical-align:middle}`;

const WIDTH = 860;
const HEIGHT = 160;
/** Bars per chart at most: neighbouring slots are added up beyond that, so a long phase stays a small page. */
const MAX_BARS = 200;

const grouped = (values: readonly number[], size: number) =>
  Array.from({ length: Math.ceil(values.length / size) }, (_, i) =>
    values.slice(i * size, (i + 1) * size).reduce((a, b) => a + b, 0),
  );

const chart = (result: PhaseResult): string => {
  const size = Math.max(1, Math.ceil(result.slots.admitted.length / MAX_BARS));
  const admitted = grouped(result.slots.admitted, size);
  const limited = grouped(result.slots.limited, size);
  const barMs = result.plan.slotMs * size;
  const limitPerBar = (result.plan.limit.count * barMs) / result.plan.limit.windowMs;
  const top = Math.max(1, limitPerBar, ...admitted.map((a, i) => a + (limited[i] ?? 0)));
  const bar = WIDTH / Math.max(admitted.length, 1);
  const y = (v: number) => HEIGHT - (v / top) * HEIGHT;
  const bars = admitted.map((a, i) => {
    const l = limited[i] ?? 0;
    const x = (i * bar).toFixed(1);
    const w = Math.max(1, bar - 1).toFixed(1);
    return `<rect x="${x}" y="${y(a).toFixed(1)}" width="${w}" height="${(HEIGHT - y(a)).toFixed(1)}" fill="#2f9e5b"><title>${a} admitted</title></rect><rect x="${x}" y="${y(a + l).toFixed(1)}" width="${w}" height="${(y(a) - y(a + l)).toFixed(1)}" fill="#d9534f"><title>${l} limited</title></rect>`;
  });
  const line = y(limitPerBar).toFixed(1);
  const unit = `${barMs} ms`;
  return `<div class="chart"><div class="muted">${esc(result.plan.name)}: requests per ${unit} of send time (dashed: SPEC.md limit per ${unit})</div>
<svg viewBox="0 0 ${WIDTH} ${HEIGHT + 2}" width="100%" height="${HEIGHT + 2}" role="img" aria-label="admitted and limited per ${unit}">${bars.join('')}<line x1="0" x2="${WIDTH}" y1="${line}" y2="${line}" stroke="#1d2330" stroke-dasharray="6 4"/></svg>
<div class="legend"><span><i class="sw" style="background:#2f9e5b"></i>admitted</span><span><i class="sw" style="background:#d9534f"></i>429</span></div></div>`;
};

const row = (result: PhaseResult, verdict: Verdict): string => {
  const { plan } = result;
  const seconds = plan.durationMs / 1000;
  const ra =
    result.retryAfterValid === undefined ? 'no 429' : `${(result.retryAfterValid * 100).toFixed(0)} %`;
  const enforced =
    verdict.enforcedPerWindow === undefined
      ? ''
      : `${verdict.enforcedPerWindow.toFixed(2)} (${(verdict.errorPercent ?? 0).toFixed(2)} %)`;
  const notes = verdict.notes.map((n) => `<div class="note">INFO: ${esc(n)}</div>`).join('');
  return `<tr><td>${esc(plan.name)}</td><td>${esc(plan.endpoints.join(', '))}</td><td>${esc(describeLimit(plan))}</td>
<td class="n">${perSecond(offeredAt(plan, plan.durationMs), plan).toFixed(2)}/s</td><td class="n">${(result.admitted / seconds).toFixed(2)}/s</td>
<td class="n">${(result.limited / seconds).toFixed(2)}/s</td><td class="n">${ra}</td><td class="n">${enforced}</td>
<td><span class="${verdict.grade}">${verdict.grade}</span>: ${esc(verdict.message)}${notes}</td></tr>`;
};

const headline = (graded: readonly { verdict: Verdict }[]): string => {
  const count = (grade: Grade) => graded.filter((g) => g.verdict.grade === grade).length;
  const parts = (['FAIL', 'INCONCLUSIVE', 'WARN', 'PASS'] as const)
    .filter((g) => count(g) > 0)
    .map((g) => `${count(g)} ${g}`);
  const worst = graded[0]?.verdict.grade ?? 'PASS';
  return `<p class="${worst}">${graded.length} phases: ${parts.join(', ')}</p>`;
};

export const summaryHtml = (summary: LoadSummary): string => {
  // Failures first, as everywhere in harness's reports.
  const graded = byGrade(summary);
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>harness load: ${esc(summary.target)}</title><style>${STYLE}</style></head><body>
<h1>Rate-limit load probe</h1>
<div class="muted">${esc(summary.target)} · ${esc(summary.generatedAt)} · ${summary.instances} k6 instance${summary.instances === 1 ? '' : 's'}</div>
${headline(graded)}
<table><thead><tr><th>phase</th><th>endpoint</th><th>SPEC.md limit</th><th>offered (peak)</th><th>admitted/s</th><th>429/s</th><th>Retry-After ok</th><th>enforced per window</th><th>verdict</th></tr></thead>
<tbody>${graded.map((g) => row(g.result, g.verdict)).join('\n')}</tbody></table>
<h2>Admitted and limited over time, by send time</h2>
${graded.map((g) => chart(g.result)).join('\n')}
</body></html>`;
};
