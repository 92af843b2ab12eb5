// One self-contained HTML page for people: the verdict and counts first, then the checks grouped by SPEC.md
// section with what needs attention first (the sections with the worst grades, and within each, the worst checks).
// Passing checks are collapsed to one line; the rest open, so failures read without clicking.
import { GRADES, type Grade } from '../runner/grades.ts';
import type { CheckResult, RunReport } from '../runner/types.ts';
import { escapeText as esc, escapeAttr } from './escape.ts';
import { evidenceHtml } from './html-evidence.ts';
import { STYLE } from './html-style.ts';
import { groupBySection, quoteSource, type SectionGroup } from './sections.ts';

const OPEN_BY_DEFAULT: ReadonlySet<Grade> = new Set(['ERROR', 'FAIL', 'INCONCLUSIVE', 'WARN']);

export const formatDuration = (ms: number): string => {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 59_950) return `${(ms / 1000).toFixed(1)} s`;
  const seconds = Math.round(ms / 1000);
  const minutes = Math.floor(seconds / 60);
  return minutes < 60
    ? `${minutes} min ${seconds % 60} s`
    : `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
};

const badge = (grade: Grade, text: string = grade, extra = ''): string =>
  `<span class="badge g-${grade}${extra}">${esc(text)}</span>`;

const countBadges = (counts: Readonly<Record<Grade, number>>): string =>
  GRADES.map((g) => badge(g, `${g} ${counts[g]}`, counts[g] === 0 ? ' zero big' : ' big')).join('');

const anchor = (group: SectionGroup): string => `sec-${group.id.replace(/[^0-9A-Za-z]/g, '') || 'x'}`;

const summary = (report: RunReport, groups: readonly SectionGroup[]): string => {
  const { target } = report;
  const meta: [string, string][] = [
    ['Target', `<span class="mono">${esc(target.base_url)}</span>`],
    ['Token endpoint', `<span class="mono">${esc(target.auth_url)}</span>`],
    ['Tenant', esc(target.tenant)],
    ['Harness', `${esc(report.harness.name)} ${esc(report.harness.version)}`],
    ['Started', esc(report.startedAt)],
    ['Finished', esc(report.finishedAt)],
    ['Duration', esc(formatDuration(report.durationMs))],
    ['Profile hash', `<span class="mono">${esc(report.profileHash)}</span>`],
    ['Command', `<code>${esc(report.command)}</code>`],
  ];
  const reasons = report.notCertifiable.map((r) => `<li>${esc(r)}</li>`).join('');
  const verdict = `<p class="verdict">Certifiable: ${report.certifiable ? 'yes' : 'no'}</p>${reasons === '' ? '' : `\n<ul>${reasons}</ul>`}`;
  const broken = report.checks.filter((c) => c.grade === 'ERROR');
  // Apart from the server's grades: these checks judged nothing, because harness itself failed.
  const harnessErrors =
    broken.length === 0
      ? ''
      : `\n<p class="verdict g-ERROR">Harness error in ${broken.length} check${broken.length === 1 ? '' : 's'} (a fault of harness, no verdict on the server): ${broken
          .map((c) => `<a href="#${escapeAttr(`check-${c.id}`)}">${esc(c.id)}</a>`)
          .join(', ')}</p>`;
  const toc = groups
    .map((g) => `<a href="#${anchor(g)}">${esc(g.name.replace(/^SPEC\.md /, ''))}</a>`)
    .join('');
  return [
    `<header class="card g-${report.certifiable ? 'PASS' : 'FAIL'}">`,
    `<h1>SPEC.md conformance report</h1>`,
    `<div class="muted">${report.checks.length} checks against ${esc(target.base_url)}</div>`,
    verdict + harnessErrors,
    `<div class="badges">${countBadges(report.counts)}</div>`,
    `<dl class="meta">${meta.map(([k, v]) => `<dt>${esc(k)}</dt><dd>${v}</dd>`).join('')}</dl>`,
    `<nav class="toc">${toc}</nav>`,
    `</header>`,
  ].join('\n');
};

const checkHtml = (check: CheckResult): string => {
  const open = OPEN_BY_DEFAULT.has(check.grade) ? ' open' : '';
  const repro =
    check.repro.length === 0
      ? ''
      : `<details class="repro"><summary>Reproduce</summary><pre>${check.repro.map(esc).join('\n\n')}</pre></details>`;
  return [
    `<details class="check g-${check.grade}" id="${escapeAttr(`check-${check.id}`)}"${open}>`,
    `<summary><span class="head">${badge(check.grade)}<span class="id mono">${esc(check.id)}</span>` +
      `<span>${esc(check.title)}</span><span class="muted">${esc(check.clause)} · ` +
      `${esc(formatDuration(check.durationMs))}</span></span>`,
    `<div class="msg">${esc(check.message)}</div></summary>`,
    `<div class="body">`,
    check.quote === ''
      ? ''
      : `<blockquote>${esc(check.quote)}<br><small>${esc(quoteSource(check))}</small></blockquote>`,
    check.tags.length === 0 ? '' : `<div class="muted">Tags: ${check.tags.map(esc).join(', ')}</div>`,
    evidenceHtml(check.evidence),
    repro,
    `</div>`,
    `</details>`,
  ]
    .filter((line) => line !== '')
    .join('\n');
};

const sectionHtml = (group: SectionGroup): string => {
  const counts = new Map<Grade, number>();
  for (const check of group.checks) counts.set(check.grade, (counts.get(check.grade) ?? 0) + 1);
  const badges = GRADES.filter((g) => counts.has(g))
    .map((g) => badge(g, `${counts.get(g)} ${g}`))
    .join('');
  return [
    `<section id="${anchor(group)}">`,
    `<h2>${esc(group.name)} ${badges}</h2>`,
    ...group.checks.map(checkHtml),
    `</section>`,
  ].join('\n');
};

/** Planned against sent per endpoint: a large gap means retries, refreshes or a probe cut short. */
const requestsHtml = (report: RunReport): string => {
  const rows = new Map<string, { planned: number; margin: number; sent: number }>();
  const row = (endpoint: string) => {
    const found = rows.get(endpoint) ?? { planned: 0, margin: 0, sent: 0 };
    rows.set(endpoint, found);
    return found;
  };
  for (const item of report.plan) {
    const r = row(item.endpoint);
    r.planned += item.requests;
    r.margin += item.margin;
  }
  for (const [endpoint, sent] of Object.entries(report.sent)) row(endpoint).sent = sent;
  if (rows.size === 0) return '';
  const body = [...rows].map(
    ([endpoint, r]) =>
      `<tr><td class="mono">${esc(endpoint)}</td><td class="n">${r.planned}</td>` +
      `<td class="n">${r.margin}</td><td class="n">${r.sent}</td></tr>`,
  );
  return [
    `<details class="card requests"><summary>Requests per endpoint</summary>`,
    `<table class="plan"><thead><tr><th>Endpoint</th><th>Planned</th><th>Margin</th><th>Sent</th></tr></thead>`,
    `<tbody>${body.join('')}</tbody></table>`,
    `</details>`,
  ].join('\n');
};

export const toHtml = (report: RunReport): string => {
  const groups = groupBySection(report.checks, 'severity');
  const verdict = report.certifiable ? 'certifiable' : 'not certifiable';
  return [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${esc(`Conformance: ${report.target.base_url} (${verdict})`)}</title>`,
    `<style>${STYLE}</style>`,
    '</head>',
    '<body><main>',
    summary(report, groups),
    ...groups.map(sectionHtml),
    requestsHtml(report),
    `<footer>Generated by ${esc(report.harness.name)} ${esc(report.harness.version)}. ` +
      'Evidence is redacted when captured: secrets appear as [REDACTED], tokens as a prefix and hash.</footer>',
    '</main></body>',
    '</html>',
    '',
  ].join('\n');
};
