// Every sink of compare and trend with hostile text from the reports: markup that would run script in compare.html
// and trend.html, Markdown that would forge a row or draw an image in compare.md, and terminal controls (OSC 52, a
// clipboard write; OSC 8, a link; C1 CSI, a screen erase; a bidi override) on stdout. A grade is an enum, refused
// at read time; the renderers escape it all the same (built here past the reader), as they do every message, ID,
// phase name and path.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { judge, reportJson } from '../../core/judged.ts';
import type { Comparison } from '../../src/compare/compare.ts';
import { DEFAULT_TOLERANCES } from '../../src/compare/compare.ts';
import { comparisonHtml, comparisonMarkdown, comparisonText } from '../../src/compare/render.ts';
import type { RunDocs } from '../../src/compare/run-types.ts';
import type { Grade } from '../../src/runner/grades.ts';
import { specDigest } from '../../src/spec/digest.ts';
import { readRuns } from '../../src/trend/runs.ts';
import { trendPage } from '../../src/trend/trend-page.ts';
import { harness } from '../cli/run.ts';
import { NETWORKS, simulate } from '../load/simulate.ts';
import { HOSTILE_STRINGS } from '../support/hostile-strings.ts';
import { GENUINE_CHECKS, genuine } from './genuine.ts';

const SCRIPT = `<img src=x onerror="fetch('//127.0.0.1:9/i')"><script>fetch('//127.0.0.1:9/s')</script>`;
const MARKDOWN = `x |\n| worse | \`FORGED\` | PASS | FAIL | ![beacon](http://127.0.0.1:9/b.png) [here](http://e.invalid) @org/team`;
const TERMINAL =
  '\u001b]52;c;ZWNobyBoaQ==\u0007\u001b]8;;http://e.invalid\u0007click\u001b]8;;\u0007\u009b3J\u009b2J\u202e';
const HOSTILE = `${SCRIPT} ${MARKDOWN} ${TERMINAL}`;

/** No element of the page came from the text: no script, no image, no handler, anywhere. */
const inertHtml = (page: string) => {
  expect(page).not.toMatch(/<script|<img|<a /i);
  expect(page).toContain('&lt;script&gt;');
  expect(page.replaceAll('\n', '')).not.toMatch(/\p{Cc}/u);
};

/**
 * Every table row of the Markdown is one the renderer wrote (a head and a row per change, a head and a row per moved
 * reading), none forged; no image, link or mention.
 */
const inertMarkdown = (md: string, changes: number, moves: number) => {
  const rows = changes + 1 + (moves > 0 ? moves + 1 : 0);
  expect(md.split('\n').filter((line) => line.startsWith('| '))).toHaveLength(rows);
  expect(md).not.toMatch(/^\| worse \| `FORGED`/m);
  // Inside a code span (a path, an ID) nothing renders, links or notifies: the rest must hold nothing live.
  const outsideCode = md.replace(/(`+)[\s\S]*?\1(?!`)/g, '');
  expect(outsideCode).not.toMatch(/(?<!\\)!\[/);
  expect(outsideCode).not.toMatch(/(?<!\\)\]\(/);
  expect(outsideCode).not.toContain('@org');
};

const inertTerminal = (text: string) => expect(text.replaceAll('\n', '')).not.toMatch(/\p{Cc}|\u202e/u);

describe('compare renderers, past the reader', () => {
  // A grade is refused at read time; this comparison is built past the reader to show each sink escapes it too.
  const hostile: Comparison = {
    a: `runs/${HOSTILE}`,
    b: `runs/b${TERMINAL}`,
    changes: [
      { id: HOSTILE, kind: 'check', a: HOSTILE as Grade, b: 'FAIL', direction: 'worse', why: HOSTILE },
      { id: 'AUTH-TOKEN-FORM', kind: 'check', a: 'FAIL', b: 'absent', direction: 'unverified', why: HOSTILE },
    ],
    moves: [
      {
        phase: HOSTILE,
        reading: 'p95 latency',
        a: 10,
        b: 50,
        movedPercent: 400,
        tolerancePercent: 20,
      },
    ],
    compared: { checks: 1, phases: 1 },
    worse: true,
    unverified: true,
    tolerances: DEFAULT_TOLERANCES,
  };

  it('writes compare.html with no live markup from the reports', () => inertHtml(comparisonHtml(hostile)));
  it('writes compare.md with no forged row, image, link or mention', () =>
    inertMarkdown(comparisonMarkdown(hostile), 2, 1));
  it('prints no control character', () => {
    for (const line of comparisonText(hostile)) inertTerminal(line.text);
    expect(comparisonText(hostile)[0]!.text).toContain('\\u001b]52;c;');
  });
});

/** A folder of two load runs, B's grades' messages (free text, so valid) holding `message`; `grade` forges B's grade. */
const loadRuns = (message: string, grade?: string): string => {
  const dir = mkdtempSync(join(tmpdir(), 'harness-sinks-'));
  const stamp = { harness: { name: 'harness', version: '0.1.0' }, specDigest: specDigest() };
  for (const [name, enforced] of [
    ['2026-11-27T09-00-00Z', 1],
    ['2026-11-27T10-00-00Z', 0.9],
  ] as const) {
    const summary = simulate(
      { kind: 'anchored', network: NETWORKS.lan, enforced, seed: 1 },
      { scenarios: ['transactions'] },
    );
    const generatedAt = `${name.slice(0, 13)}:00:00.000Z`;
    const json = JSON.parse(reportJson(judge({ ...summary, generatedAt }), stamp));
    if (enforced < 1) {
      for (const g of json.grades) {
        g.message = message;
        if (grade !== undefined) g.grade = grade;
      }
    }
    mkdirSync(join(dir, name));
    writeFileSync(join(dir, name, 'load-transactions-summary.json'), JSON.stringify(json));
  }
  return dir;
};

describe('compare and trend on hostile load summaries', () => {
  it.each([
    ['markup', `<img src=x onerror=alert(1)><script>alert(1)</script>`],
    ['Markdown', '| worse | x | PASS | FAIL |'],
    ['null', null],
  ])('refuse a grade of %s as malformed (exit 2), writing nothing', async (_, grade) => {
    const dir = loadRuns('fine', grade as string);
    const out = join(dir, 'out');
    const [a, b] = ['2026-11-27T09-00-00Z', '2026-11-27T10-00-00Z'].map((run) => join(dir, run));
    const run = await harness(['compare', a!, b!, '--out', out], {}, 30_000);
    expect(run.status, run.stderr).toBe(2);
    expect(run.stderr).toMatch(
      /^harness: \S+load-transactions-summary\.json: not a harness load summary: \/grades\/\d+/,
    );
    expect(() => readFileSync(join(out, 'compare.html'))).toThrow(/ENOENT/);
    expect(() => readRuns(dir)).toThrow(/\/grades\/\d+/);
  });

  it('escape a message of markup, Markdown and terminal controls in every output of compare', async () => {
    const dir = loadRuns(HOSTILE);
    const out = join(dir, 'out');
    const [a, b] = ['2026-11-27T09-00-00Z', '2026-11-27T10-00-00Z'].map((run) => join(dir, run));
    const run = await harness(['compare', a!, b!, '--out', out], {}, 30_000);
    expect(run.status, run.stderr).toBe(1);
    inertTerminal(run.stdout);
    expect(run.stdout).toContain('\\u001b]52;c;');
    const lines = run.stdout.split('\n');
    const changes = lines.filter((line) => /^(worse|unverified|changed) /.test(line)).length;
    expect(lines.filter((line) => line.startsWith('worse')).length).toBeGreaterThan(0);
    inertHtml(readFileSync(join(out, 'compare.html'), 'utf8'));
    const md = readFileSync(join(out, 'compare.md'), 'utf8');
    inertMarkdown(md, changes, lines.filter((line) => line.startsWith('moved')).length);
    expect(md).toMatch(/^## harness compare: a verdict got worse$/m);
  });

  it('escape a phase name and folder name of markup and controls on the trend page and its terminal lines', async () => {
    const dir = loadRuns('fine');
    const hostileRun = join(dir, `z${SCRIPT}${TERMINAL}`.replaceAll('/', '∕'));
    mkdirSync(hostileRun);
    writeFileSync(
      join(hostileRun, 'conformance.json'),
      JSON.stringify({ ...genuine(GENUINE_CHECKS), specDigest: `sha256:${'1'.repeat(64)}` }),
    );
    const page = trendPage(`reports${SCRIPT}`, readRuns(dir));
    inertHtml(page);
    const run = await harness(['trend', dir, '--out', join(dir, 'trend.html')], {}, 30_000);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^left out: .*judged against other SPEC\.md data/m);
    inertTerminal(run.stdout);
    inertHtml(readFileSync(join(dir, 'trend.html'), 'utf8'));
  });
});

/** The elements of a page, in order: text from the reports must add none, and take none away. */
const elementsOf = (page: string) => [...page.matchAll(/<\/?([A-Za-z][\w-]*)/g)].map((m) => m[1]);

/** A comparison with `text` wherever the reports supply text: paths, an ID, a message, a phase name. */
const comparisonWith = (text: string): Comparison => ({
  a: text,
  b: `b ${text}`,
  changes: [{ id: text, kind: 'phase', a: 'PASS', b: 'FAIL', direction: 'worse', why: text }],
  moves: [{ phase: text, reading: 'p95 latency', a: 10, b: 50, movedPercent: 400, tolerancePercent: 20 }],
  compared: { checks: 0, phases: 1 },
  worse: true,
  unverified: false,
  tolerances: DEFAULT_TOLERANCES,
});

/** Two runs (one conformance, one load) with `text` as a check ID, phase names, endpoints and folder names. */
const runsWith = (text: string): RunDocs[] => {
  const summary = simulate(
    { kind: 'anchored', network: NETWORKS.lan, seed: 1 },
    { scenarios: ['transactions'] },
  );
  const written = JSON.parse(reportJson(judge({ ...summary, generatedAt: '2026-11-27T11:00:00.000Z' })));
  const named = (name: string) => `${text} ${name}`;
  const report = {
    ...written,
    phases: written.phases.map((p: { plan: { name: string } }) => ({
      ...p,
      plan: { ...p.plan, name: named(p.plan.name), endpoints: [text] },
    })),
    grades: written.grades.map((g: { phase: string }) => ({ ...g, phase: named(g.phase) })),
  };
  return [
    { source: text, conformance: genuine([{ ...GENUINE_CHECKS[0]!, id: text }]), load: [] },
    { source: `${text} load`, load: [{ file: 'load-x-summary.json', report }] },
  ];
};

describe.each(HOSTILE_STRINGS)('$name in every sink of compare and trend', ({ text }) => {
  it('compare.html and trend.html have the elements they have with plain text, and nothing illegal', () => {
    for (const render of [
      (t: string) => comparisonHtml(comparisonWith(t)),
      (t: string) => trendPage(t, { runs: runsWith(t), leftOut: [t] }),
    ]) {
      const page = render(text);
      expect(elementsOf(page)).toEqual(elementsOf(render('plain')));
      // What XML 1.0 and HTML parsers refuse: controls but tab, LF and CR; C1; lone surrogates.
      expect(page).not.toMatch(/[^\t\n\r\x20-\x7E\xA0-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u);
    }
  });

  it('compare.md has the lines and table rows it has with plain text, and nothing live outside code', () => {
    const [md, plain] = [text, 'plain'].map((t) => comparisonMarkdown(comparisonWith(t)).split('\n'));
    expect(md!.map((line) => line.startsWith('|'))).toEqual(plain!.map((line) => line.startsWith('|')));
    for (const [i, line] of md!.entries()) {
      if (!line.startsWith('|')) continue;
      const cells = line.replace(/(`+)[\s\S]*?\1(?!`)/g, 'code').split(/(?<!\\)\|/);
      expect(cells.length, line).toBe(plain![i]!.split('|').length);
    }
  });

  it('the terminal lines of compare hold no control, bidi mark or separator', () => {
    for (const line of comparisonText(comparisonWith(text))) inertTerminal(line.text.replaceAll('\n', ' '));
    expect(comparisonText(comparisonWith(text)).join('')).not.toMatch(
      /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/,
    );
  });
});
