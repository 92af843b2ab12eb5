// Each FAIL's proof on the terminal at the end of a run, as Schemathesis prints a failing case's curl: the exchange
// the grade turns on (what was sent, what came back, the header or body fragment that shows it) and how to run it
// again. Short: a limit FAIL's burst is one line of counts, its exchanges stay in the reports.
import type { Evidence } from '../client/index.ts';
import { type TerminalText, tty } from '../printable.ts';
import type { LimitTimeline } from '../runner/limit-timeline.ts';
import type { CheckResult } from '../runner/types.ts';

/** How much of a URL, a header value or a body fragment a line shows. */
const SHOWN_CHARS = 120;
/** Reproduction lines shown; the reports hold them all. */
const SHOWN_REPRO_LINES = 4;

const short = (text: string, most = SHOWN_CHARS): string => {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length <= most ? line : `${line.slice(0, most - 1)}…`;
};

/**
 * The exchange a FAIL turns on: the one its message names (`'spend #101'`), else the last that got an answer (a
 * check records what it judged last), else the last.
 */
const decisiveExchange = (check: CheckResult): Evidence | undefined =>
  check.evidence.find((e) => e.label !== undefined && check.message.includes(`'${e.label}'`)) ??
  check.evidence.filter((e) => e.response !== undefined).at(-1) ??
  check.evidence.at(-1);

/** Words of the message that may name a header or a JSON field: `token_type`, `Retry-After`, `WWW-Authenticate`. */
const namesIn = (message: string): string[] => [
  ...new Set(message.match(/[A-Za-z][A-Za-z0-9_-]{2,}/g)?.map((w) => w.toLowerCase())),
];

/** The header the message names, or the part of the body around a field it names, or the start of the body. */
const fragment = (check: CheckResult, evidence: Evidence): string | undefined => {
  const response = evidence.response;
  if (response === undefined) return evidence.error && `${evidence.error.kind}: ${evidence.error.message}`;
  const names = namesIn(check.message);
  const header = Object.entries(response.headers).find(([name]) => names.includes(name));
  if (header) return `${header[0]}: ${header[1]}`;
  const body = response.body ?? '';
  const at = names.map((name) => body.toLowerCase().indexOf(`"${name}"`)).find((i) => i >= 0);
  if (at === undefined) return body === '' ? undefined : `body: ${body}`;
  const from = Math.max(0, at - 20);
  return `body: ${from > 0 ? '…' : ''}${body.slice(from, from + SHOWN_CHARS)}`;
};

const timelineLine = ({ limit, claim, counted, bound, from, until, shownOf, requests }: LimitTimeline) => {
  const of = `a faithful limiter of ${limit.count} per ${limit.windowMs} ms`;
  const stretch = `${Math.round(until - from)} ms`;
  const drawn = `; its ${shownOf ?? requests.length} requests are drawn in conformance.html`;
  return claim === 'over'
    ? tty`    the burst: ${counted} admitted within ${stretch}, where ${of} admits at most ${bound}${drawn}`
    : tty`    the burst: a 429 with at most ${counted} admitted in the ${stretch} before it, where ${of} needs ${bound}${drawn}`;
};

const proofOf = (check: CheckResult): TerminalText[] => {
  const decisive = decisiveExchange(check);
  const lines = [tty`  ${check.id}`];
  if (decisive !== undefined) {
    const answer = decisive.response ? String(decisive.response.status) : 'no answer';
    const label = decisive.label === undefined ? '' : `'${short(decisive.label, 40)}' `;
    lines.push(tty`    ${label}${decisive.request.method} ${short(decisive.request.url)} → ${answer}`);
    const shown = fragment(check, decisive);
    if (shown !== undefined) lines.push(tty`      ${short(shown)}`);
  }
  if (check.timeline) lines.push(timelineLine(check.timeline));
  else if (check.evidence.length > 1)
    lines.push(tty`    and ${check.evidence.length - 1} more exchanges in the reports`);
  const repro = check.repro.slice(0, SHOWN_REPRO_LINES).map((line) => tty`      ${line}`);
  const more = check.repro.length - SHOWN_REPRO_LINES;
  return [
    ...lines,
    ...(repro.length > 0 ? [tty`    reproduce:`, ...repro] : []),
    ...(more > 0 ? [tty`    (${more} more lines in conformance.md)`] : []),
  ];
};

/** The proof of every FAIL, each a few lines; nothing when none failed. */
export const proofLines = (checks: readonly CheckResult[]): TerminalText[] => {
  const failed = checks.filter((c) => c.grade === 'FAIL');
  return failed.length === 0 ? [] : [tty`proof of each FAIL:`, ...failed.flatMap(proofOf)];
};
