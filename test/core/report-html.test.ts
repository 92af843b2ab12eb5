// The load report a person opens (report-html.ts, report-chart.ts) and the metric names the k6 web dashboard shows
// (options.ts): structure asserted, not pixels; scripts/screenshots-load.ts shows the pixels.
import { describe, expect, it } from 'vitest';
import type { RunnerClock } from '../../core/clocks.ts';
import { judge } from '../../core/judged.ts';
import { escapeMarkup as escapeHtml } from '../../core/markup.ts';
import { slotMetrics } from '../../core/phase-results.ts';
import type { PhasePlan } from '../../core/plan.ts';
import { summaryHtml } from '../../core/report-html.ts';
import { judgeAll } from '../../core/verdict.ts';
import { planProbes } from '../../src/k6-driver/plan.ts';
import { resolveTarget } from '../../src/profile/target.ts';
import { NETWORKS, simulate } from '../load/simulate.ts';
import { PLAN_ONLY_TARGET } from '../load/target.ts';

// A limiter enforcing 1.5 times the limit: the over phases FAIL, the within phases PASS, and execute's phases run
// before transactions', so grade order and run order differ.
const summary = simulate(
  { kind: 'aligned', network: NETWORKS.lan, enforced: 1.5 },
  { scenarios: ['transactions', 'execute'] },
);
const html = summaryHtml(judge(summary));
const grades = judgeAll(summary);
const failing = summary.phases.filter((_, i) => grades[i]!.grade === 'FAIL').map((p) => p.plan.name);
const runOrder = [...summary.phases].sort((a, b) => a.plan.startMs - b.plan.startMs).map((p) => p.plan.name);
const tableOf = (page: string) => page.slice(page.indexOf('<table'), page.indexOf('</table>'));
const chartOf = (name: string) => {
  const from = html.indexOf(`<svg class="chart" viewBox="0 0 `, html.indexOf(`<h3>${name} `));
  return html.slice(from, html.indexOf('</svg>', from));
};
/** Where each phase is first named in `text`, in order of appearance. */
const namedInOrder = (text: string) =>
  runOrder
    .map((name) => ({ name, at: text.search(new RegExp(`>${name}<`)) }))
    .sort((a, b) => a.at - b.at)
    .map((n) => n.name);
/** Unicode's control characters (C0, DEL, C1) but tab, line feed and carriage return. */
const CONTROL = /[^\P{Cc}\t\n\r]/u;

describe('load HTML report', () => {
  it('lists the phases in the order they ran, and names the failing ones above the table', () => {
    expect(failing.length).toBeGreaterThan(0);
    expect(runOrder[0]).toBe('within_execute');
    expect(namedInOrder(tableOf(html))).toEqual(runOrder);
    expect(namedInOrder(html.slice(html.indexOf('</table>')))).toEqual(runOrder);
    const header = html.slice(0, html.indexOf('<table'));
    expect(header).toMatch(/class="verdict FAIL"/);
    for (const name of failing) expect(header).toContain(name);
    // Each name may break after an underscore, so a long one does not widen the table past a narrow page.
    for (const name of failing)
      expect(tableOf(html)).toMatch(
        new RegExp(`class="[^"]*row-FAIL[^"]*"><td[^>]*>${name.replaceAll('_', '_<wbr>')}<div`),
      );
  });

  it('draws each phase per window, on axes in seconds of the run and requests, scaled to the page width', () => {
    expect(html.match(/<svg /g)).toHaveLength(summary.phases.length);
    const chart = chartOf('within_execute');
    expect(chart).not.toMatch(/<svg[^>]* (width|height)=/);
    expect(html).toMatch(/svg\.chart\{[^}]*width:100%;height:auto/);
    expect(chart).toContain("send time (s since the run's start)");
    expect(chart).toContain('>sent in the 2 s before<');
    // within_execute starts at 0 and lasts 2.4 s of 2 s "minutes", with its tail: ticks every half second.
    for (const tick of ['0', '0.5', '1', '1.5', '2']) expect(chart).toContain(`>${tick}</text>`);
    expect(chart).toMatch(/SPEC\.md limit: 30 per 2 s</);
    expect(chart).toMatch(/>60: the most a faithful fixed window or token bucket admits across an edge</);
    // over_transactions starts 20.44 s into the run: its axis says so.
    expect(chartOf('over_transactions')).toMatch(/>2[1-4]<\/text>/);
  });

  it.each(['aligned', 'anchored', 'sliding-log', 'token-bucket'] as const)(
    'shows a faithful %s limiter at the limit line and an over-admitting one above it, with its reading',
    (kind) => {
      const faithful = simulate(
        { kind, network: NETWORKS.lan, enforced: 1 },
        { scenarios: ['transactions'] },
      );
      const over = faithful.phases.find((p) => p.plan.name === 'over_transactions')!.plan;
      /** The admitted bars of a phase's chart from `after` s into it until it ends (its tail slots drain). */
      const admittedFrom = (page: string, name: string, after: number, startS: number) => {
        const endS = startS + over.durationMs / 1000;
        const from = page.indexOf(`<svg class="chart"`, page.indexOf(`<h3>${name} `));
        const chart = page.slice(from, page.indexOf('</svg>', from));
        return [...chart.matchAll(/up to ([\d.]+) s: (\d+) admitted/g)]
          .filter((m) => Number(m[1]) >= startS + after && Number(m[1]) <= endS)
          .map((m) => Number(m[2]));
      };
      const n = over.limit.count;
      const passing = summaryHtml(judge(faithful));
      const windowS = over.limit.windowMs / 1000;
      const all = admittedFrom(passing, 'over_transactions', 0, over.startMs / 1000);
      const steady = admittedFrom(passing, 'over_transactions', 2 * windowS, over.startMs / 1000);
      expect(steady.length).toBeGreaterThan(10);
      // Per bar (before), a fixed window's burst stood at twice the line; per window it runs along it, and only the
      // phase's first window, which meets an edge, reaches above it, below the edge line.
      expect(Math.max(...steady)).toBeLessThanOrEqual(n * 1.05 + 2);
      expect(Math.max(...all)).toBeLessThanOrEqual(2 * n);
      expect(passing).not.toContain('class="reading"');
      const failingBars = admittedFrom(html, 'over_transactions', 2 * windowS, over.startMs / 1000);
      expect(Math.min(...failingBars)).toBeGreaterThan(n * 1.3);
      expect(chartOf('over_transactions')).toMatch(/class="reading"\/><text[^>]*>read: [\d.]+ per 1 s</);
    },
  );

  it("marks a FAIL's proof in its chart, the 429 it rests on at the send time its message names, and nothing on a PASS", () => {
    let marked = 0;
    for (const name of failing) {
      const verdict = grades[summary.phases.findIndex((p) => p.plan.name === name)]!;
      const chart = chartOf(name);
      expect(chart).toContain('class="proof-span"');
      const sentAt = /after a 429 \(sent at (\d+\.\d+) s/.exec(verdict.message);
      if (sentAt) {
        expect(chart).toMatch(/<line [^>]*class="proof"\/>/);
        expect(chart).toContain(`the 429 that proves the FAIL (sent at ${Number(sentAt[1])} s)`);
        marked += 1;
      }
    }
    expect(marked).toBeGreaterThan(0);
    const passing = summary.phases.filter((_, i) => grades[i]!.grade === 'PASS').map((p) => p.plan.name);
    expect(passing.length).toBeGreaterThan(0);
    for (const name of passing) expect(chartOf(name)).not.toContain('proof');
  });

  it('names admitted, 429 and the other answers in each chart legend', () => {
    const legends = html.match(/<div class="legend">.*?<\/div>/g) ?? [];
    expect(legends).toHaveLength(summary.phases.length);
    for (const legend of legends)
      expect(legend).toMatch(/admitted \(\d+\).*429 \(\d+\).*other status or no answer/);
  });

  it("says each phase's latency percentiles below its legend, and nothing for a phase without them", () => {
    const [first, ...rest] = summary.phases;
    const latencyMs = { p50Ms: 2.25, p95Ms: 12.4, p99Ms: 130.6 };
    const page = summaryHtml(judge({ ...summary, phases: [{ ...first!, latencyMs }, ...rest] }));
    expect(page.match(/<p class="latency">[^<]*<\/p>/g)).toEqual([
      '<p class="latency">latency (k6\'s http_req_duration): p50 2.3 ms, p95 12 ms, p99 131 ms</p>',
    ]);
  });

  it('keeps the table inside a container that scrolls it sideways rather than the page', () => {
    expect(html).toMatch(/<div class="table-wrap"><table>/);
    expect(html).toMatch(/\.table-wrap\{overflow-x:auto/);
  });

  it('drops control characters from what it quotes, and escapes markup', () => {
    const page = summaryHtml(
      judge({ ...summary, target: 'https://api.example\u0000\u001b[31m\u0085<b>x</b>\t' }),
    );
    expect(page).not.toMatch(CONTROL);
    expect(page).toContain('https://api.example[31m&lt;b&gt;x&lt;/b&gt;\t');
    expect(escapeHtml('a\u0007b\u009bc\u007fd\r\n"\'&')).toBe('abcd\r\n&quot;&#39;&amp;');
  });
});

describe('load HTML report of a merged run', () => {
  const runner = (source: string, segment: string, clock: RunnerClock) => ({
    source,
    segment,
    clock,
    runId: 'r',
    planDigest: 'd',
    sequence: '0,1/2,1',
    startAt: 0,
    setupCompleted: true,
    harnessVersion: '0.1.0',
    k6Version: 'v2.2.0',
  });
  const merged = {
    ...summary,
    instances: 2,
    lateMs: [0, 3],
    runners: [
      runner('pods/<b>1</b>.log', '0:1/2', { host: '', offsetMs: { lo: -2, hi: 27 } }),
      runner('pods/2.log', '1/2:1', { host: '' }),
    ],
    startSpread: {
      why: "pods/2.log shares no host's clock with the others and recorded no Date header of the target's",
    },
  };

  it('lists each runner: its file, segment, start and clock, and why their starts can or cannot be compared', () => {
    const page = summaryHtml(judge(merged));
    const section = page.slice(page.indexOf('<h2>Runners</h2>'));
    expect(section).toContain(
      `<td>${escapeHtml('pods/<b>1</b>.log')}</td><td>0:1/2</td><td class="n">0</td>`,
    );
    expect(section).toContain('<td>-2 to 27 ms</td><td>0.1.0</td><td>v2.2.0</td>');
    expect(section).toContain('<td>pods/2.log</td><td>1/2:1</td><td class="n">3</td><td>no Date read</td>');
    expect(section).toContain(
      escapeHtml("Their starts cannot be compared: pods/2.log shares no host's clock"),
    );
    expect(section).not.toContain('<b>1</b>');
  });

  it('says how far apart runners on one machine started, by its one clock', () => {
    const local = { ...merged, startSpread: undefined };
    expect(summaryHtml(judge(local))).toContain(
      escapeHtml("On one machine's clock; they started up to 3 ms apart."),
    );
  });

  it('has no runners section for one runner', () => {
    expect(html).not.toContain('<h2>Runners</h2>');
  });
});

describe('k6 metric names', () => {
  const K6_METRIC_NAME = /^[a-zA-Z_][a-zA-Z0-9_]{0,127}$/;
  const phaseNamed = (name: string) => ({ name }) as PhasePlan;

  it('name every phase of every probe, in a form k6 accepts', () => {
    const phases = planProbes(
      resolveTarget({ ...PLAN_ONLY_TARGET, observability: ['GET /api/observability/a'] }),
      { scenarios: ['all'] },
    ).probes.flatMap((p) => p.phases);
    const names = slotMetrics(phases);
    expect(phases.some((p) => p.name.includes('-'))).toBe(true);
    const all = names.flatMap((n) => [n.admitted, n.limited]);
    for (const name of all) expect(name).toMatch(K6_METRIC_NAME);
    expect(new Set(all).size).toBe(all.length);
    expect(names[phases.findIndex((p) => p.name === 'over_tenant-sharing')]).toEqual({
      admitted: 'harness_admitted_rtt_over_tenant_sharing',
      limited: 'harness_limited_rtt_over_tenant_sharing',
    });
  });

  it('keep names apart that differ only in characters k6 refuses, and cut long ones to k6 length', () => {
    const names = slotMetrics(['a-b', 'a_b', 'a_b_1', 'x'.repeat(200), 'x'.repeat(201)].map(phaseNamed));
    const all = names.flatMap((n) => [n.admitted, n.limited]);
    for (const name of all) expect(name).toMatch(K6_METRIC_NAME);
    expect(new Set(all).size).toBe(all.length);
    expect(names[0]!.admitted).toBe('harness_admitted_rtt_a_b');
  });
});
