// The load report a person opens (report-html.ts) and the metric names the k6 web dashboard shows (options.ts).
import { describe, expect, it } from 'vitest';
import { escapeHtml } from '../../load/lib/html-escape.ts';
import { slotMetrics } from '../../load/lib/options.ts';
import type { PhasePlan } from '../../load/lib/plan.ts';
import { summaryHtml } from '../../load/lib/report-html.ts';
import { planProbes } from '../../src/k6/plan.ts';
import { resolveTarget } from '../../src/runner/target.ts';
import { NETWORKS, simulate } from './simulate.ts';
import { PLAN_ONLY_TARGET } from './target.ts';

const summary = simulate({ kind: 'aligned', network: NETWORKS.lan }, { scenarios: ['transactions'] });
/** Unicode's control characters (C0, DEL, C1) but tab, line feed and carriage return. */
const CONTROL = /[^\P{Cc}\t\n\r]/u;

describe('load HTML report', () => {
  it('drops control characters from what it quotes, and escapes markup', () => {
    const page = summaryHtml({ ...summary, target: 'https://api.example\u0000\u001b[31m\u0085<b>x</b>\t' });
    expect(page).not.toMatch(CONTROL);
    expect(page).toContain('https://api.example[31m&lt;b&gt;x&lt;/b&gt;\t');
    expect(escapeHtml('a\u0007b\u009bc\u007fd\r\n"\'&')).toBe('abcd\r\n&quot;&#39;&amp;');
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
