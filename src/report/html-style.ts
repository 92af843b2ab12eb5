// The report's only stylesheet, inlined so the HTML file is self-contained: it is archived as a CI artifact and
// opened offline, so it may load nothing.
import { GRADES, type Grade } from '../runner/grades.ts';

export const GRADE_COLOURS: Readonly<Record<Grade, string>> = {
  ERROR: '#212121',
  FAIL: '#c62828',
  INCONCLUSIVE: '#6a1b9a',
  WARN: '#b45f06',
  SKIP: '#607d8b',
  INFO: '#1565c0',
  PASS: '#2e7d32',
};

const gradeRules = GRADES.map((g) => `.g-${g}{--grade:${GRADE_COLOURS[g]}}`).join('\n');

export const STYLE = `
:root{--fg:#1f2328;--muted:#656d76;--line:#d0d7de;--bg:#f6f8fa;--card:#fff;
  font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;font-size:15px;color:var(--fg)}
body{margin:0;background:var(--bg)}
main{max-width:1100px;margin:0 auto;padding:24px 20px 60px}
h1{font-size:1.6rem;margin:0 0 4px}
h2{font-size:1.15rem;margin:32px 0 10px;display:flex;align-items:center;gap:10px;flex-wrap:wrap}
code,pre,.mono{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,"Liberation Mono",monospace;font-size:.85rem}
.muted{color:var(--muted)}
.card{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:16px 20px}
header.card{border-top:6px solid var(--grade)}
.meta{display:grid;grid-template-columns:max-content 1fr;gap:4px 16px;margin:14px 0}
.meta dt{color:var(--muted)}
.meta dd{margin:0;overflow-wrap:anywhere}
.verdict{font-size:1.1rem;font-weight:600;margin:12px 0 4px;color:var(--grade);display:flex;align-items:baseline;
  gap:4px 12px;flex-wrap:wrap}
.verdict .outcome{font-size:1.5rem;font-weight:800;letter-spacing:.02em}
.verdict .detail{font-weight:600}
.coverage{font-weight:600;margin:0 0 4px}
.coverage.partial{color:#9a6700}
.badge.cert{align-self:center;background:#fff;border:1px solid var(--line);color:var(--muted)}
.badge.cert-yes{border-color:#2e7d32;color:#2e7d32}
.reasons{color:var(--muted);font-size:.9rem;margin-top:6px}
.reasons ul{margin:2px 0 0;padding-left:22px}
.badges{display:flex;gap:8px;flex-wrap:wrap;margin-top:14px}
.badge{display:inline-block;border-radius:999px;padding:2px 10px;font-size:.78rem;font-weight:700;letter-spacing:.02em;
  color:#fff;background:var(--grade);white-space:nowrap}
.badge.zero{background:#fff;color:var(--muted);border:1px solid var(--line);font-weight:600}
.badge.big{font-size:.9rem;padding:4px 12px}
nav.toc{margin-top:14px;font-size:.9rem}
nav.toc a{color:inherit;margin-right:16px;white-space:nowrap}
.check{background:var(--card);border:1px solid var(--line);border-left:5px solid var(--grade);border-radius:6px;
  margin:8px 0}
.check > summary{cursor:pointer;padding:10px 14px;list-style:none;display:grid;grid-template-columns:1em minmax(0,1fr)}
.check > summary::-webkit-details-marker{display:none}
/* The toggle keeps its own column, so a title that wraps wraps beside it, never below it. */
.check > summary::before{content:"▸";color:var(--muted)}
.check[open] > summary::before{content:"▾"}
.check .head{display:flex;gap:4px 10px;align-items:baseline;flex-wrap:wrap;min-width:0}
.check .id{font-weight:700;overflow-wrap:anywhere}
.check .msg{grid-column:2;margin:4px 0 0;overflow-wrap:anywhere}
.check .body{padding:0 14px 12px 30px}
blockquote{white-space:pre-wrap;margin:8px 0;padding:6px 12px;border-left:3px solid var(--line);color:var(--muted);background:var(--bg)}
blockquote small{display:block;margin-top:4px}
table.quote{border-collapse:collapse;white-space:normal}
table.quote th,table.quote td{border:1px solid var(--line);padding:2px 8px;text-align:left;background:var(--card)}
figure.timeline{margin:12px 0;padding:10px 12px;border:1px solid var(--line);border-radius:6px;background:var(--card);
  overflow-x:auto}
figure.timeline figcaption{margin-bottom:6px}
/* Labels stay legible on a narrow screen: below 640 px the picture scrolls rather than shrinks further. */
svg.timeline{display:block;width:100%;min-width:640px;height:auto;font:14px system-ui,sans-serif;fill:var(--fg)}
/* Drawn at 1000 units wide: on a narrow page the picture shrinks, so its text grows to stay about 13 px. */
@media (max-width:1000px){svg.timeline{font-size:19px}}
svg.timeline .req{stroke-linecap:butt;opacity:.35}
svg.timeline .req.counted{opacity:1}
svg.timeline .ok{stroke:#2e7d32}svg.timeline .refused{stroke:#c62828}svg.timeline .other{stroke:#8c959f}
svg.timeline .excess{stroke:#ef6c00}
svg.timeline .stretch{fill:#fff3c4;stroke:#e0b000;stroke-dasharray:4 3}
svg.timeline .bound{stroke:#1f2328;stroke-width:1.5;stroke-dasharray:6 4}
svg.timeline .refusal{fill:none;stroke:#c62828;stroke-width:2}
svg.timeline .axis,svg.timeline .tick{stroke:#656d76}
svg.timeline .bound-label,svg.timeline .stretch-label{font-weight:600}
.legend{display:flex;flex-wrap:wrap;gap:4px 16px;font-size:.85rem;color:var(--muted);margin-top:4px}
.sw{display:inline-block;width:14px;height:10px;margin-right:5px;vertical-align:middle;border-radius:2px}
.sw.ok{background:#2e7d32}.sw.excess{background:#ef6c00}.sw.refused{background:#c62828}.sw.other{background:#8c959f}
.sw.stretch{background:#fff3c4;border:1px dashed #e0b000}.sw.bound{height:0;border-top:2px dashed #1f2328;border-radius:0}
details.evidence,details.repro,details.refresh{margin-top:10px}
details > summary{cursor:pointer}
.exchange{border:1px solid var(--line);border-radius:6px;padding:8px 12px;margin:8px 0;background:var(--bg)}
.exchange-head{display:flex;justify-content:space-between;gap:12px;flex-wrap:wrap}
.exchange-label{font-weight:600}
.label{font-size:.75rem;text-transform:uppercase;letter-spacing:.05em;color:var(--muted);margin-top:8px}
pre{background:var(--card);border:1px solid var(--line);border-radius:4px;padding:8px 10px;margin:4px 0;
  white-space:pre-wrap;overflow-wrap:anywhere;max-height:28em;overflow:auto}
pre.error{color:#c62828}
.status-ok{color:#2e7d32}.status-bad{color:#c62828}
details.requests{margin-top:32px}
details.requests table{margin-top:10px}
table.plan{border-collapse:collapse;width:100%;background:var(--card)}
table.plan th,table.plan td{border:1px solid var(--line);padding:4px 8px;text-align:left;font-size:.85rem}
table.plan td.n{text-align:right}
footer{margin-top:40px;color:var(--muted);font-size:.8rem}
mark{background:#ffe08a;color:inherit;border-radius:2px;padding:0 2px;outline:1px solid #e0b000}
.check .head code{font-size:.85em;background:var(--bg);border:1px solid var(--line);border-radius:4px;padding:0 4px}
label.only-not-pass{display:inline-flex;gap:8px;align-items:center;margin:16px 0 0;padding:6px 12px;background:var(--card);
  border:1px solid var(--line);border-radius:999px;font-weight:600;cursor:pointer}
/* The "not PASS only" toggle, with no script: PASS checks go, and with them each section left with nothing else. */
main:has(#not-pass-only:checked) .check.g-PASS,
main:has(#not-pass-only:checked) section:not(:has(.check:not(.g-PASS))){display:none}
${gradeRules}
`;
