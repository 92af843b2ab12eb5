// compare.html reads at a glance: grades as coloured badges in columns that never break them, B's message on a row
// of its own under each change, the header coloured by what the comparison found.
import { describe, expect, it } from 'vitest';
import { type Comparison, DEFAULT_TOLERANCES } from '../../src/compare/compare.ts';
import { comparisonHtml } from '../../src/compare/render.ts';

const comparison: Comparison = {
  a: 'reports/a',
  b: 'reports/b',
  changes: [
    {
      id: 'LIMIT-ENFORCED-RULES-EXECUTE',
      kind: 'check',
      a: 'PASS',
      b: 'FAIL',
      direction: 'worse',
      why: 'over',
    },
    {
      id: 'over_transactions',
      kind: 'phase',
      a: 'PASS',
      b: 'absent',
      direction: 'unverified',
      why: 'not run',
    },
  ],
  moves: [],
  compared: { checks: 1, phases: 1 },
  worse: true,
  unverified: true,
  tolerances: DEFAULT_TOLERANCES,
};
const page = comparisonHtml(comparison);

describe('compare.html', () => {
  it('shows the direction and both grades as badges, in columns kept to their width', () => {
    expect(page).toContain(
      '<td class="fit"><span class="badge dir-worse">worse</span></td><td class="id"><code>LIMIT-ENFORCED-RULES-EXECUTE</code> <span class="muted">(check)</span></td><td class="fit"><span class="badge g-PASS">PASS</span></td><td class="fit"><span class="badge g-FAIL">FAIL</span></td>',
    );
    expect(page).toContain('<span class="badge absent">absent</span>');
    expect(page).toContain('table.compare td.fit,table.compare th.fit{width:1%;white-space:nowrap}');
    // Nothing may break a word at any letter, which split FAIL into FA/IL.
    expect(page).not.toMatch(/table\.compare[^{]*\{[^}]*anywhere/);
  });

  it("puts B's message on its own row under the change, across the table", () => {
    expect(page).toContain(
      '<tr class="worse"><td class="says" colspan="4"><span class="muted">B says:</span> over</td></tr>',
    );
  });

  it('colours the header by what the comparison found', () => {
    expect(page).toContain('<header class="card g-FAIL">');
    const calm = comparisonHtml({ ...comparison, changes: [], worse: false, unverified: false });
    expect(calm).toContain('<header class="card g-PASS">');
    expect(calm).toContain('<p>No grade changed.</p>');
  });
});
