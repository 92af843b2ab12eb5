// The load summary as one self-contained HTML page: a verdict line naming the phases that failed, the phases'
// table in the order they ran (failing rows marked), then each phase's requests over time (report-chart.ts), and for
// a merged run, its runners.
// No scripts, nothing fetched. Pure TypeScript, shared by handleSummary and the harness CLI.
import type { RunnerClock } from './clocks.ts';
import { type Latency, type LoadSummary, spreadOf } from './evidence.ts';
import { GRADES } from './grade.ts';
import type { JudgedPhase, JudgedSummary } from './judged.ts';
import { escapeMarkup as esc } from './markup.ts';
import { offeredAt } from './plan.ts';
import { COLOURS, phaseChart } from './report-chart.ts';
import { describeLimit, perSecond } from './verdict.ts';

const STYLE = `body{font:14px/1.45 system-ui,sans-serif;margin:24px;color:#1d2330;background:#f6f7f9}
h1{font-size:20px;margin:0 0 4px}h2{font-size:16px;margin:28px 0 8px}h3{font-size:15px;margin:0 0 4px}.muted{color:#5b6475}
.verdict{font-size:16px;padding:10px 14px;margin:14px 0;border-radius:6px;background:#fff;border-left:6px solid}
.verdict ul{margin:4px 0 0;padding-left:20px;font-size:14px}
.table-wrap{overflow-x:auto;max-width:100%}
table{border-collapse:collapse;background:#fff;width:100%}th,td{border:1px solid #d9dde5;padding:5px 7px;text-align:left;vertical-align:top}
td.name{white-space:nowrap}td .endpoint{color:#5b6475;font-size:12px;white-space:normal}td{overflow-wrap:break-word}td.n{text-align:right;font-variant-numeric:tabular-nums}
tr.phase-row td{border-bottom:none}td.msg{border-top:none;padding:0 8px 8px 20px}
.PASS{color:#17803d;font-weight:600}.FAIL{color:#c0262d;font-weight:600}
.WARN{color:#a15c00;font-weight:600}.INCONCLUSIVE{color:#5b3fa0;font-weight:600}.note{color:#5b6475;font-size:12px}
.verdict.PASS{border-color:#17803d}.verdict.FAIL{border-color:#c0262d}.verdict.WARN{border-color:#a15c00}
.verdict.INCONCLUSIVE{border-color:#5b3fa0}
tr.row-FAIL td{background:#fdecec}tr.row-INCONCLUSIVE td{background:#f3effb}tr.row-WARN td{background:#fdf4e6}
.phase{background:#fff;border:1px solid #d9dde5;padding:10px 12px;margin-bottom:12px}
.phase-FAIL{border-left:6px solid #c0262d}.phase-INCONCLUSIVE{border-left:6px solid #5b3fa0}.phase-WARN{border-left:6px solid #a15c00}
.legend span{margin-right:16px;white-space:nowrap}.sw{display:inline-block;width:10px;height:10px;margin-right:4px;vertical-align:middle}
svg.chart{display:block;width:100%;height:auto;margin-top:6px;font:13px system-ui,sans-serif;fill:#1d2330}
@media (max-width:1000px){svg.chart{font-size:21px}svg.chart .title{font-size:18px}
table{font-size:13px}th,td{padding:4px 5px}}svg.chart text{paint-order:stroke;stroke:#fff;stroke-width:3px}
svg.chart .axis{stroke:#1d2330}svg.chart .grid{stroke:#e6e9ef}svg.chart .limit{stroke:#1d2330;stroke-dasharray:6 4}
svg.chart .end{stroke:#5b6475;stroke-dasharray:2 3}svg.chart .title{fill:#5b6475}
svg.chart .reading{stroke:#7b3fa0;stroke-dasharray:2 2}svg.chart .proof-span{fill:#c0262d;fill-opacity:.08}
svg.chart line.proof{stroke:#c0262d;stroke-width:2}svg.chart text.proof{fill:#c0262d}svg.chart .edge{stroke:#b8bfcc;stroke-dasharray:1 3}svg.chart .label{paint-order:stroke;stroke:#fff;stroke-width:4px;font-weight:600}`;

/** The phases as they ran: by start, then in plan order (the sort is stable). */
const inRunOrder = ({ phases }: JudgedSummary): JudgedPhase[] =>
  [...phases].sort((a, b) => a.result.plan.startMs - b.result.plan.startMs);

/** The worst grade first, and every phase that is not a PASS named under its grade. */
const verdictLine = (judged: readonly JudgedPhase[]): string => {
  const of = (grade: string) => judged.filter((j) => j.verdict.grade === grade);
  const worst = GRADES.find((grade) => of(grade).length > 0) ?? 'PASS';
  const counts = GRADES.filter((g) => of(g).length > 0).map((g) => `${of(g).length} ${g}`);
  const named = GRADES.filter((g) => g !== 'PASS' && of(g).length > 0).map(
    (g) =>
      `<li><span class="${g}">${g}</span>: ${of(g)
        .map((j) => esc(j.result.plan.name))
        .join(', ')}</li>`,
  );
  return `<div class="verdict ${worst}"><span class="${worst}">${worst}</span>: ${judged.length} phases, ${counts.join(', ')}${named.length > 0 ? `<ul>${named.join('')}</ul>` : ''}</div>`;
};

/** What a phase's name says it does, under the table (its offered rates are shares of the limit: k6-driver/plan.ts). */
const PHASE_WORDS =
  'Phases: <b>within</b> offers 90 % of the limit, where no 429 may come; <b>over</b> offers twice the limit (or --rate), and the ' +
  'limit is read between its 429s; <b>knee</b> rises from half the limit to twice it, to see where refusals begin; ' +
  '<b>beside</b> is another tenant, offering half its limit while the first is held over its own.';

const COLUMNS = [
  'phase and endpoint',
  'starts',
  'SPEC.md limit',
  'offered (peak)',
  'admitted/s',
  '429/s',
  'Retry-After ok',
  'enforced per window',
] as const;

/** Two rows per phase: its numbers, then its verdict across the whole table, so the table stays narrow. */
const row = ({ result, verdict }: JudgedPhase): string => {
  const { plan } = result;
  const seconds = plan.durationMs / 1000;
  const ra =
    result.retryAfterValid === undefined ? 'no 429' : `${(result.retryAfterValid * 100).toFixed(0)} %`;
  const enforced =
    verdict.enforcedPerWindow === undefined
      ? ''
      : `${verdict.enforcedPerWindow.toFixed(2)} (${(verdict.errorPercent ?? 0).toFixed(2)} %)`;
  const notes = verdict.notes.map((n) => `<div class="note">INFO: ${esc(n)}</div>`).join('');
  // A break allowed after each underscore: a long phase name no longer widens the table past a narrow page.
  return `<tr class="phase-row row-${verdict.grade}"><td class="name">${esc(plan.name).replace(/_/g, '_<wbr>')}<div class="endpoint">${esc(plan.endpoints.join(', '))}</div></td><td class="n">${(plan.startMs / 1000).toFixed(1)}&nbsp;s</td><td>${esc(describeLimit(plan))}</td>
<td class="n">${perSecond(offeredAt(plan, plan.durationMs), plan).toFixed(2)}/s</td><td class="n">${(result.admitted / seconds).toFixed(2)}/s</td>
<td class="n">${(result.limited / seconds).toFixed(2)}/s</td><td class="n">${ra}</td><td class="n">${enforced}</td></tr>
<tr class="row-${verdict.grade}"><td class="msg" colspan="${COLUMNS.length}"><span class="${verdict.grade}">${verdict.grade}</span>: ${esc(verdict.message)}${notes}</td></tr>`;
};

/** `p50 2 ms, p95 5 ms, p99 9 ms`: the terminal and the HTML say it alike. */
export const latencyText = (latency: Latency): string =>
  `p50 ${ms(latency.p50Ms)}, p95 ${ms(latency.p95Ms)}, p99 ${ms(latency.p99Ms)}`;
const ms = (value: number) => `${value < 10 ? value.toFixed(1) : Math.round(value)} ms`;

const swatch = (colour: string, text: string) =>
  `<span><i class="sw" style="background:${colour}"></i>${text}</span>`;

/** A phase's section id, which index.html links to: phase names are k6 scenario names, but come from files. */
export const phaseAnchor = (name: string): string => `phase-${name.replace(/[^0-9A-Za-z_-]/g, '')}`;

const phaseSection = ({ result, verdict }: JudgedPhase): string => {
  const other = result.refused + result.networkErrors;
  return `<section class="phase phase-${verdict.grade}" id="${phaseAnchor(result.plan.name)}"><h3>${esc(result.plan.name)} <span class="${verdict.grade}">${verdict.grade}</span></h3>
<div class="legend">${swatch(COLOURS.admitted, `admitted (${result.admitted})`)}${swatch(COLOURS.limited, `429 (${result.limited})`)}${swatch(COLOURS.other, `other status or no answer (${other}, not drawn: their send times are not recorded)`)}</div>
${result.latencyMs === undefined ? '' : `<p class="latency">latency (k6's http_req_duration): ${latencyText(result.latencyMs)}</p>`}
${phaseChart(result, verdict.enforcedPerWindow, verdict.grade === 'FAIL' ? verdict.proof : undefined)}</section>`;
};

const clockCell = (clock: RunnerClock | undefined): string => {
  const bounds = clock?.offsetMs;
  const read = bounds ? `${Math.round(bounds.lo)} to ${Math.round(bounds.hi)} ms` : 'no Date read';
  return clock?.host ? `${read} (host ${clock.host.slice(0, 8)})` : read;
};

/** A merged run's runners: what each ran, and how far apart their starts may be (clocks.ts). */
const runnersSection = (summary: LoadSummary): string => {
  const runners = summary.runners ?? [];
  if (runners.length < 2) return '';
  const { lateMs } = summary;
  const spread = spreadOf(summary);
  const line =
    spread.ms === undefined
      ? `Their starts cannot be compared: ${spread.why}.`
      : spread.why
        ? `Their starts may lie up to ${Math.round(spread.ms)} ms apart in the target's time: ${spread.why}.`
        : `On one machine's clock; they started up to ${Math.round(spread.ms)} ms apart.`;
  const rows = runners.map(
    (r, i) =>
      `<tr><td>${esc(r.source)}</td><td>${esc(r.segment)}</td><td class="n">${Math.round(lateMs[i] ?? 0)}</td><td>${esc(clockCell(r.clock))}</td><td>${esc(r.harnessVersion)}</td><td>${esc(r.k6Version)}</td></tr>`,
  );
  return `<h2>Runners</h2>
<div class="muted">${esc(line)}</div>
<div class="table-wrap"><table><thead><tr><th>Runner</th><th>Execution segment</th><th>Started (ms after the first, own clock)</th><th>Target's clock minus the runner's</th><th>harness</th><th>k6</th></tr></thead>
<tbody>${rows.join('\n')}</tbody></table></div>`;
};

/** The page of a judged summary: it shows the verdicts it is given, and judges nothing itself. */
export const summaryHtml = (run: JudgedSummary): string => {
  const { summary } = run;
  const judged = inRunOrder(run);
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>harness load: ${esc(summary.target)}</title><style>${STYLE}</style></head><body>
<h1>Rate-limit load probe</h1>
<div class="muted">${esc(summary.target)} · ${esc(summary.generatedAt)} · ${summary.instances} k6 instance${summary.instances === 1 ? '' : 's'}</div>
${verdictLine(judged)}
<div class="table-wrap"><table><thead><tr>${COLUMNS.map((c) => `<th>${c}</th>`).join('')}</tr></thead>
<tbody>${judged.map(row).join('\n')}</tbody></table></div>
<div class="muted">${PHASE_WORDS}</div>
<h2>Requests over time, by send time, in the order the phases ran</h2>
${judged.map(phaseSection).join('\n')}
${runnersSection(summary)}
</body></html>`;
};
