// One self-contained HTML page for people: the verdict and counts first, then the checks grouped by SPEC.md
// section with what needs attention first (the sections with the worst grades, and within each, the worst checks).
// Passing checks are collapsed to one line; the rest open, so failures read without clicking. Built with one
// auto-escaping template (core/markup.ts): whatever the server sent is text, wherever it lands.
import { html, joinMarkup, type Markup, trusted } from '../../core/markup.ts';
import { plural } from '../plural.ts';
import { GRADES, type Grade } from '../runner/grades.ts';
import type { CheckResult, RunReport } from '../runner/types.ts';
import { coverageSentence } from './coverage.ts';
import { evidenceHtml, offendingValues } from './html-evidence.ts';
import { codeSpans, quoteHtml } from './html-quote.ts';
import { STYLE } from './html-style.ts';
import { timelineFigure } from './html-timeline.ts';
import { NEEDS_ATTENTION } from './run-index.ts';
import { runVerdict, verdictHeadline } from './run-verdict.ts';
import { groupBySection, quoteSource, type SectionGroup } from './sections.ts';

/** Open from the start, and their evidence marked: what index.html lists as needing attention. */
const OPEN_BY_DEFAULT = NEEDS_ATTENTION;

export const formatDuration = (ms: number): string => {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 59_950) return `${(ms / 1000).toFixed(1)} s`;
  const seconds = Math.round(ms / 1000);
  const minutes = Math.floor(seconds / 60);
  return minutes < 60
    ? `${minutes} min ${seconds % 60} s`
    : `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
};

const badge = (grade: Grade, text: string = grade, extra = ''): Markup =>
  html`<span class="badge g-${grade}${extra}">${text}</span>`;

const countBadges = (counts: Readonly<Record<Grade, number>>): Markup[] =>
  GRADES.map((g) => badge(g, `${g} ${counts[g]}`, counts[g] === 0 ? ' zero big' : ' big'));

const anchor = (group: SectionGroup): string => `sec-${group.id.replace(/[^0-9A-Za-z]/g, '') || 'x'}`;

/**
 * The run's verdict (as the exit code reads it) coloured; certifiability beside it, a separate matter; and how much of
 * SPEC.md the run verified, so a PASS over a run that skipped many checks never reads as a full one.
 */
const verdictHtml = (report: RunReport): Markup => {
  const verdict = runVerdict(report);
  const reasons = report.notCertifiable.map((r) => html`<li>${r}</li>`);
  const certifiable = report.certifiable ? 'yes' : 'no';
  return html`<p class="verdict"><span class="outcome">${verdict.verdict}</span>${verdict.detail === '' ? '' : html`<span class="detail">${verdict.detail}</span>`}<span class="badge cert cert-${certifiable}">Certifiable: ${certifiable}</span></p>
<p class="coverage${report.counts.SKIP > 0 ? ' partial' : ''}">${coverageSentence(report)}</p>${reasons.length === 0 ? '' : html`\n<div class="reasons">Why this run cannot certify the target:<ul>${reasons}</ul></div>`}`;
};

const summary = (report: RunReport, groups: readonly SectionGroup[]): Markup => {
  const { target } = report;
  const meta: [string, Markup][] = [
    ['Target', html`<span class="mono">${target.base_url}</span>`],
    ['Token endpoint', html`<span class="mono">${target.auth_url}</span>`],
    ['Tenant', html`${target.tenant}`],
    ['Harness', html`${report.harness.name} ${report.harness.version}`],
    ['Started', html`${report.startedAt}`],
    ['Finished', html`${report.finishedAt}`],
    ['Duration', html`${formatDuration(report.durationMs)}`],
    ['Profile hash', html`<span class="mono">${report.profileHash}</span>`],
    ['Command', html`<code>${report.command}</code>`],
  ];
  const broken = report.checks.filter((c) => c.grade === 'ERROR');
  // Apart from the server's grades: these checks judged nothing, because harness itself failed.
  const harnessErrors =
    broken.length === 0
      ? ''
      : html`\n<p class="verdict g-ERROR">Harness error in ${plural(broken.length, 'check')} (a fault of harness, no verdict on the server): ${joinMarkup(
          broken.map((c) => html`<a href="#check-${c.id}">${c.id}</a>`),
          ', ',
        )}</p>`;
  const toc = groups.map((g) => html`<a href="#${anchor(g)}">${g.name.replace(/^SPEC\.md /, '')}</a>`);
  return html`<header class="card g-${runVerdict(report).grade}">
<h1>SPEC.md conformance report</h1>
<div class="muted">${plural(report.checks.length, 'check')} against ${target.base_url}</div>
${verdictHtml(report)}${harnessErrors}
<div class="badges">${countBadges(report.counts)}</div>
<dl class="meta">${meta.map(([k, v]) => html`<dt>${k}</dt><dd>${v}</dd>`)}</dl>
<nav class="toc">${toc}</nav>
</header>
${notPassToggle(report)}`;
};

/**
 * A checkbox that hides every PASS (and the sections left empty) through the stylesheet's :has() rules: the page
 * runs no script. Checked from the start when something needs attention, so that leads.
 */
const notPassToggle = (report: RunReport): Markup => {
  const passed = report.counts.PASS;
  const attention = report.checks.some((c) => OPEN_BY_DEFAULT.has(c.grade));
  return html`<label class="only-not-pass"><input type="checkbox" id="not-pass-only"${trusted(attention ? ' checked' : '')}> Show only what is not PASS (hides ${plural(passed, 'passing check')})</label>`;
};

const checkHtml = (check: CheckResult): Markup => {
  const repro =
    check.repro.length === 0
      ? ''
      : html`\n<details class="repro"><summary>Reproduce</summary><pre>${check.repro.join('\n\n')}</pre></details>`;
  return html`<details class="check g-${check.grade}" id="check-${check.id}"${trusted(OPEN_BY_DEFAULT.has(check.grade) ? ' open' : '')}>
<summary><span class="head">${badge(check.grade)}<span class="id mono">${check.id}</span><span>${codeSpans(check.title)}</span><span class="muted">${check.clause} · ${formatDuration(check.durationMs)}</span></span>
<div class="msg">${check.message}</div></summary>
<div class="body">${
    check.quote === ''
      ? ''
      : html`\n<blockquote>${quoteHtml(check.quote)}<small>${quoteSource(check)}</small></blockquote>`
  }${check.tags.length === 0 ? '' : html`\n<div class="muted">Tags: ${check.tags.join(', ')}</div>`}${
    check.timeline === undefined ? '' : html`\n${timelineFigure(check.timeline)}`
  }
${evidenceHtml(check.evidence, OPEN_BY_DEFAULT.has(check.grade) ? offendingValues(check.message) : [])}${repro}
</div>
</details>`;
};

const sectionHtml = (group: SectionGroup): Markup => {
  const counts = new Map<Grade, number>();
  for (const check of group.checks) counts.set(check.grade, (counts.get(check.grade) ?? 0) + 1);
  const badges = GRADES.filter((g) => counts.has(g)).map((g) => badge(g, `${counts.get(g)} ${g}`));
  return html`<section id="${anchor(group)}">
<h2>${group.name} ${badges}</h2>
${joinMarkup(group.checks.map(checkHtml), '\n')}
</section>`;
};

/** Planned against sent per endpoint: a large gap means retries, refreshes or a probe cut short. */
const requestsHtml = (report: RunReport): Markup | '' => {
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
      html`<tr><td class="mono">${endpoint}</td><td class="n">${r.planned}</td><td class="n">${r.margin}</td><td class="n">${r.sent}</td></tr>`,
  );
  return html`<details class="card requests"><summary>Requests per endpoint</summary>
<table class="plan"><thead><tr><th>Endpoint</th><th>Planned</th><th>Margin</th><th>Sent</th></tr></thead>
<tbody>${body}</tbody></table>
</details>`;
};

/** What each grade means, in a reader's words, at the page's foot (issue 23: a short glossary). */
const GLOSSARY: Readonly<Record<Grade, string>> = {
  ERROR: 'harness itself went wrong; it says nothing about the server, and the run exits 4',
  FAIL: 'the server breaks a rule SPEC.md states; the evidence proves it whatever the network did',
  INCONCLUSIVE: 'the evidence could not decide (other traffic, a starved runner, a deadline): not verified',
  WARN: 'SPEC.md is silent, and the RFCs it builds on (6749, 6750, 9110) say otherwise',
  SKIP: 'not run, with the reason; one you chose (--only, side_effects) leaves nothing unverified',
  INFO: 'an observation, neither right nor wrong (which kind of limiter runs, say)',
  PASS: 'the rule holds, and the evidence shows it',
};

/** The names the rate-limit probe gives its requests, as the evidence and its timelines show them (`spend #101`). */
const PROBE_WORDS: readonly (readonly [string, string])[] = [
  ['bucket', 'the endpoints that share one SPEC.md limit, and the count of requests the limit allows them'],
  [
    'spend #n',
    "the probe's first burst: one request more than the limit, sent at once, so that a 429 must come",
  ],
  [
    'edge poll #n',
    'one request at a time after that 429, to find when the limit lets requests through again',
  ],
  [
    'wait poll #n',
    'one request while a Retry-After is waited out, to see whether capacity came back before it said',
  ],
  [
    'fresh #n',
    "a second full burst, sent once the spend's answers are a window old: the limit is counted again",
  ],
  ['window end #n', 'a burst timed to arrive as a window ends, to measure how long the window really is'],
  [
    'capacity back early',
    'a burst after a wait poll got through early: a window that reset early does so again',
  ],
];

const glossary = () =>
  html`<details class="glossary"><summary>What the grades and the probe's request names mean</summary><dl>${joinMarkup(
    GRADES.map((grade) => html`<dt class="${grade}">${grade}</dt><dd>${GLOSSARY[grade]}</dd>`),
    '',
  )}${joinMarkup(
    PROBE_WORDS.map(([word, meaning]) => html`<dt>${word}</dt><dd>${meaning}</dd>`),
    '',
  )}</dl></details>`;

export const toHtml = (report: RunReport): string => {
  const groups = groupBySection(report.checks, 'severity');
  const certifiable = report.certifiable ? 'certifiable' : 'not certifiable';
  const page = html`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Conformance: ${report.target.base_url}: ${verdictHeadline(runVerdict(report))} (${certifiable})</title>
<style>${trusted(STYLE)}</style>
</head>
<body><main>
${summary(report, groups)}
${joinMarkup(groups.map(sectionHtml), '\n')}
${requestsHtml(report)}
${glossary()}
<footer>Generated by ${report.harness.name} ${report.harness.version}. Evidence is redacted when captured: secrets appear as [REDACTED], tokens as a prefix and hash.</footer>
</main></body>
</html>
`;
  return page.text;
};
