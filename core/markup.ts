// The one escaper of harness's HTML and XML reports, and an auto-escaping template for the HTML: every value
// interpolated into `html` is escaped unless it is itself `html` output, so forgetting to escape is not possible,
// only marking something safe on purpose. Plain TypeScript with no imports: k6 runs it too (core/report-html.ts).
// Text in reports comes from the server under test, so it may hold anything: markup, quotes, NUL, lone surrogates.

/**
 * Characters no report should carry: C0 controls but tab/LF/CR, DEL, C1 controls (a terminal reads U+009B as CSI),
 * lone surrogates, U+FFFE/U+FFFF. XML 1.0 forbids the C0 ones even as references; HTML parsers flag all of them.
 */
const CONTROL = /[^\t\n\r\x20-\x7E\xA0-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

const ENTITIES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export const stripControl = (text: string): string => text.replace(CONTROL, '');

/** Safe in element text and in quoted attribute values of both HTML and XML. */
export const escapeMarkup = (text: string): string =>
  stripControl(text).replace(/[&<>"']/g, (c) => ENTITIES[c]!);

/** Markup that is safe as it stands: made only by `html`, or by `trusted` for text harness wrote itself. */
export class Markup {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

/** What may be interpolated: nothing (left out), text and numbers (escaped), markup, or lists of them. */
export type Interpolation = Markup | string | number | boolean | null | undefined | readonly Interpolation[];

const render = (value: Interpolation): string => {
  if (value instanceof Markup) return value.text;
  if (Array.isArray(value)) return value.map(render).join('');
  if (value === null || value === undefined || value === false || value === true) return '';
  return escapeMarkup(String(value));
};

/** A template whose every interpolation is escaped unless it is Markup; `false`/`undefined` render as nothing. */
export const html = (strings: TemplateStringsArray, ...values: readonly Interpolation[]): Markup =>
  new Markup(strings.reduce((out, literal, i) => out + render(values[i - 1] as Interpolation) + literal));

/** Harness's own constant markup (a stylesheet, a glyph): never pass text that came from elsewhere. */
export const trusted = (text: string): Markup => new Markup(text);

/** Pieces joined by `separator`, each escaped unless it is markup. */
export const joinMarkup = (parts: readonly Interpolation[], separator: Interpolation): Markup =>
  new Markup(parts.map(render).join(render(separator)));
