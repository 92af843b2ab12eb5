// index.html in a run's folder: the page to open first. It leads with the verdict as the exit code reads it, the
// counts and the coverage, then what is not PASS (each a link into the verdict page), then every file of the run
// with what it is for, so the verdict page is never confused with k6's dashboard. Built with the auto-escaping
// template: check titles, phase names and messages come from reports the target's answers shaped.
import { html, joinMarkup, type Markup, trusted } from '../../core/markup.ts';
import { GRADES, type Grade, gradeRank } from '../runner/grades.ts';
import { STYLE } from './html-style.ts';

export const RUN_INDEX = 'index.html';

/** What each report file is for, by name: the first pattern that matches describes it. */
const FILE_ROLES: readonly (readonly [RegExp, string])[] = [
  [/^conformance\.html$/, 'the verdict: every check with its evidence and how to reproduce it'],
  [/-summary\.html$/, "the verdict: every phase's readings, charts and grade"],
  [/^load-[^/]*\.html$/, "k6's own web dashboard: throughput and latency as k6 saw them, no verdict"],
  [/\.xml$/, 'JUnit, for a CI test tab'],
  [/^conformance\.json$|-summary\.json$/, 'the whole result, for tools (harness compare, harness trend)'],
  [/\.md$/, 'Markdown, for a pull-request comment or a job summary'],
  [/^runners\//, "one k6 runner's raw results, which the verdict is judged from"],
];
const rank = (name: string): number => {
  const at = FILE_ROLES.findIndex(([pattern]) => pattern.test(name));
  return at < 0 ? FILE_ROLES.length : at;
};
/** The first two roles above are the verdict pages, set in bold. */
const VERDICT_PAGES = 2;

/** The grades the index lists one by one: the rest are only counted. */
export const NEEDS_ATTENTION: ReadonlySet<Grade> = new Set(['ERROR', 'FAIL', 'INCONCLUSIVE', 'WARN']);

/** A check or phase that needs attention, as the index lists it. */
export interface IndexEntry {
  readonly id: string;
  readonly grade: Grade;
  readonly title: string;
  /** Where it is told in full, relative to the run's folder. */
  readonly href: string;
}

export interface RunIndexPage {
  readonly title: string;
  /** The run's verdict as the exit code reads it, and the grade whose colour shows it. */
  readonly verdict: string;
  readonly grade: Grade;
  readonly counts: Readonly<Partial<Record<Grade, number>>>;
  /** How much the verdict covers, beside it. */
  readonly coverage?: string;
  /** Whether the run can certify the target (conformance only), with why not. */
  readonly certifiable?: { readonly yes: boolean; readonly why: readonly string[] };
  /** What needs attention (ERROR, FAIL, INCONCLUSIVE, WARN), the worst first. */
  readonly entries: readonly IndexEntry[];
  /** Names relative to the run's folder. */
  readonly files: readonly string[];
}

const INDEX_STYLE = `.files{margin:0;padding-left:20px}.files li{margin:4px 0;overflow-wrap:anywhere}
.files .verdict-page a{font-weight:700}.entries{list-style:none;margin:8px 0 0;padding:0}
.entries li{display:flex;gap:4px 10px;align-items:baseline;flex-wrap:wrap;padding:6px 0;border-top:1px solid var(--line)}
.entries .id{font-weight:700;overflow-wrap:anywhere}h2{margin-top:24px}`;

const badge = (grade: Grade, text: string, extra = ''): Markup =>
  html`<span class="badge g-${grade}${extra}">${text}</span>`;

const fileItem = (name: string): Markup => {
  const role = FILE_ROLES[rank(name)]?.[1];
  const verdictPage = rank(name) < VERDICT_PAGES ? ' class="verdict-page"' : '';
  return html`<li${trusted(verdictPage)}><a href="${name}">${name}</a>${role === undefined ? '' : html` <span class="muted">— ${role}</span>`}</li>`;
};

const entryItem = (entry: IndexEntry): Markup =>
  html`<li>${badge(entry.grade, entry.grade)}<a class="id mono" href="${entry.href}">${entry.id}</a><span>${entry.title}</span></li>`;

const certifiableLine = (certifiable: RunIndexPage['certifiable']): Markup | '' =>
  certifiable === undefined
    ? ''
    : html`<p><span class="badge cert cert-${certifiable.yes ? 'yes' : 'no'}">Certifiable: ${certifiable.yes ? 'yes' : 'no'}</span></p>${
        certifiable.why.length === 0
          ? ''
          : html`<div class="reasons">Why this run cannot certify the target:<ul>${certifiable.why.map((why) => html`<li>${why}</li>`)}</ul></div>`
      }`;

export const runIndex = (page: RunIndexPage): string => {
  const files = [...new Set(page.files)]
    .filter((name) => name !== RUN_INDEX)
    .sort((a, b) => rank(a) - rank(b));
  const counts = GRADES.filter((g) => page.counts[g] !== undefined).map((g) =>
    badge(g, `${g} ${page.counts[g]}`, page.counts[g] === 0 ? ' zero big' : ' big'),
  );
  const entries =
    page.entries.length === 0
      ? html`<p>Nothing failed, warned or went unverified.</p>`
      : html`<ul class="entries">${joinMarkup(page.entries.map(entryItem), '\n')}</ul>`;
  return `${html`<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${page.title}: ${page.verdict}</title>
<style>${trusted(STYLE + INDEX_STYLE)}</style>
</head><body><main>
<header class="card g-${page.grade}">
<h1>${page.title}</h1>
<p class="verdict"><span class="outcome">${page.verdict}</span></p>
${page.coverage === undefined ? '' : html`<p class="coverage">${page.coverage}</p>`}
<div class="badges">${counts}</div>
${certifiableLine(page.certifiable)}
</header>
<h2>Needs attention (${page.entries.length})</h2>
${entries}
<h2>Files of this run</h2>
<ul class="files">${joinMarkup(files.map(fileItem), '\n')}</ul>
</main></body></html>`}\n`;
};

/** The entries of a list of graded items, the worst first, each linked by `href`. */
export const attentionEntries = <T extends { readonly grade: Grade }>(
  items: readonly T[],
  entry: (item: T) => IndexEntry,
): IndexEntry[] =>
  items
    .filter((item) => NEEDS_ATTENTION.has(item.grade))
    .map(entry)
    .sort((a, b) => gradeRank(a.grade) - gradeRank(b.grade));
