import { createHash } from 'node:crypto';
import { LongestMatchReplacer } from './replacer.ts';

export const REDACTED = '[REDACTED]';

/**
 * Values learned from traffic shorter than this are redacted only where they were found, so a server answering
 * `"access_token":"a"` cannot make every later "a" vanish from the evidence.
 */
const MIN_LEARNED_LENGTH = 8;
/** Below this length four characters would give away too much of the value. */
const MIN_PREFIX_LENGTH = 16;
/** How much of a value's start marks, in a text cut short, where a cut copy of it may begin. */
const HEAD_LENGTH = 4;

const SECRET_KEYS = new Set(['client_secret', 'password']);
const JSON_KEY_RULE =
  /("(client_secret|password|access_token|refresh_token|id_token)"\s*:\s*")((?:[^"\\]|\\.)*)"/g;
const FORM_KEY_RULE = /(^|[?&])(client_secret|password|access_token|refresh_token|id_token)=([^&#\s"]*)/g;
const CREDENTIAL_HEADERS = new Set(['authorization', 'proxy-authorization']);

/**
 * `abcd…(sha256:0123456789ab)`: enough to tell tokens apart and match them against server logs, never enough to
 * replay one.
 */
export const redactToken = (token: string): string => {
  if (token === '') return '';
  const hash = createHash('sha256').update(token).digest('hex').slice(0, 12);
  return `${token.length >= MIN_PREFIX_LENGTH ? token.slice(0, 4) : ''}…(sha256:${hash})`;
};

const decodeJsonString = (escaped: string): string => {
  try {
    return JSON.parse(`"${escaped}"`) as string;
  } catch {
    return escaped;
  }
};

const decodeFormValue = (encoded: string): string => {
  try {
    return decodeURIComponent(encoded.replaceAll('+', ' '));
  } catch {
    return encoded;
  }
};

const hex4 = (char: string) => char.charCodeAt(0).toString(16).padStart(4, '0');
const lowerPercent = (encoded: string) =>
  encoded.replace(/%[0-9A-F]{2}/g, (percent) => percent.toLowerCase());
const HTML_ENTITIES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/**
 * Inside a JSON string as encoders write it: as JSON.stringify does, with `/` as `\/` (PHP's default), with `<`, `>`
 * and `&` as `\u003c` (Go's default), the same and `'` in upper case (PHP's JSON_HEX_* flags), and with every
 * non-ASCII character as `\uXXXX` (Python's default).
 */
const jsonForms = (value: string): string[] => {
  const plain = JSON.stringify(value).slice(1, -1);
  const slashed = plain.replaceAll('/', '\\/');
  const hexed = (text: string, chars: RegExp, upper: boolean) =>
    text.replace(chars, (c) => `\\u${upper ? hex4(c).toUpperCase() : hex4(c)}`);
  return [
    plain,
    slashed,
    ...[plain, slashed].flatMap((text) =>
      [/[<>&]/g, /[<>&']/g].flatMap((chars) => [hexed(text, chars, false), hexed(text, chars, true)]),
    ),
    plain.replace(/[^\x20-\x7e]/g, (c) => `\\u${hex4(c)}`),
  ];
};

/**
 * The forms a value takes on the wire and in pages that echo it: raw, percent- and form-encoded (either case of
 * hex), inside a JSON string (jsonForms), HTML-escaped, and base64 and base64url (padded and not). A base64 value
 * is matched only where it starts a base64 stream, which is where an encoder puts a whole value.
 */
const wireForms = (value: string): Set<string> => {
  const percent = encodeURIComponent(value);
  const form = new URLSearchParams({ v: value }).toString().slice(2);
  const base64 = Buffer.from(value, 'utf8').toString('base64');
  return new Set([
    value,
    percent,
    lowerPercent(percent),
    form,
    lowerPercent(form),
    ...jsonForms(value),
    value.replace(/[&<>"']/g, (c) => HTML_ENTITIES[c]!),
    base64,
    base64.replace(/=+$/, ''),
    Buffer.from(value, 'utf8').toString('base64url'),
  ]);
};

/** A JSON value that is no string under a secret-bearing key: an object, an array or a number (a token sent so). */
const STRUCTURED_VALUE =
  /"(?:client_secret|password|access_token|refresh_token|id_token)"\s*:\s*(?=[[{\d-])/g;

/** Where the JSON value starting at `from` ends: its brackets balanced (strings skipped), or the text's end. */
const valueEnd = (s: string, from: number): number => {
  if (s[from] !== '{' && s[from] !== '[') {
    let at = from;
    while (at < s.length && /[\d.eE+-]/.test(s[at]!)) at++;
    return at;
  }
  let depth = 0;
  for (let at = from; at < s.length; at++) {
    const c = s[at];
    if (c === '"') {
      for (at++; at < s.length && s[at] !== '"'; at++) if (s[at] === '\\') at++;
    } else if (c === '{' || c === '[') depth++;
    else if ((c === '}' || c === ']') && --depth === 0) return at + 1;
  }
  return s.length;
};

/** Each structured value under a secret-bearing key replaced whole, in one pass (text inside it is never rescanned). */
const withoutStructuredValues = (s: string): string => {
  let out = '';
  let last = 0;
  STRUCTURED_VALUE.lastIndex = 0;
  for (let match = STRUCTURED_VALUE.exec(s); match !== null; match = STRUCTURED_VALUE.exec(s)) {
    const start = match.index + match[0].length;
    const end = valueEnd(s, start);
    out += `${s.slice(last, start)}"${REDACTED}"`;
    last = end;
    STRUCTURED_VALUE.lastIndex = end;
  }
  return out + s.slice(last);
};

/**
 * Knows every secret and token seen so far and removes all of them from evidence text. One per HttpClient, shared by
 * everything that sends through it, so a token learned from one response is hidden in every later exchange.
 */
export class Redactor {
  /** Every wire form registered, so a value is registered once. */
  readonly #known = new Set<string>();
  /**
   * Never a regular expression built from the values: one of a 40 KB token was too large for V8, and its error
   * quoted every secret; and its cost grew with every token learned.
   */
  readonly #replacer = new LongestMatchReplacer();
  /** The first HEAD_LENGTH characters of every longer wire form, and the longest form's length. */
  readonly #heads = new Set<string>();
  #longest = 0;

  /** Shown as `[REDACTED]` wherever it appears (client secrets). */
  addSecret(value: string): void {
    this.#register(value, REDACTED);
  }

  /**
   * A client's secret, and its id and secret as HTTP Basic sends them (RFC 6749 §2.3.1: each form-encoded, joined by
   * `:`, base64): a page echoing the request's Authorization header shows that.
   */
  addClient(id: string, secret: string): void {
    this.addSecret(secret);
    const form = (text: string) => new URLSearchParams({ v: text }).toString().slice(2);
    for (const pair of new Set([`${id}:${secret}`, `${form(id)}:${form(secret)}`])) {
      const base64 = Buffer.from(pair, 'utf8').toString('base64');
      for (const encoded of new Set([base64, base64.replace(/=+$/, '')]))
        this.#register(encoded, REDACTED, false);
    }
  }

  /** Shown as prefix plus hash wherever it appears (access tokens and values derived from them). */
  addToken(value: string): void {
    this.#register(value, redactToken(value));
  }

  /** Redacts a body or URL: known secret-bearing fields first (learning their values), then every known secret. */
  text(s: string): string {
    if (s === '') return s;
    const keyed = withoutStructuredValues(s)
      .replace(JSON_KEY_RULE, (_m, head: string, key: string, value: string) =>
        this.#keyed(head, key, decodeJsonString(value), '"'),
      )
      .replace(FORM_KEY_RULE, (_m, sep: string, key: string, value: string) =>
        this.#keyed(`${sep}${key}=`, key, decodeFormValue(value), ''),
      );
    return this.known(keyed);
  }

  /**
   * A text cut short (a body harness stopped reading) may end in the start of a secret, which no registered value
   * matches: it ends here before the first place in its last stretch (as long as the longest value) where a
   * registered value's first characters appear. A false alarm costs only the end of a cut body.
   */
  withoutCutValue(s: string): string {
    for (let at = Math.max(0, s.length - this.#longest); at + HEAD_LENGTH <= s.length; at++) {
      if (this.#heads.has(s.slice(at, at + HEAD_LENGTH))) return s.slice(0, at);
    }
    return s;
  }

  /** Hides every value registered so far, learning nothing: header names, messages, anything harness writes. */
  known(s: string): string {
    return this.#replacer.replace(s);
  }

  /**
   * A copy of a JSON value (as JSON.stringify sees it) with every string hidden as by `known`: the last pass over a
   * report, for what it carries beside evidence (the target, labels, reproductions, messages).
   */
  within(value: unknown): unknown {
    if (typeof value === 'string') return this.known(value);
    if (value === null || typeof value !== 'object') return value;
    const json = (value as { toJSON?: () => unknown }).toJSON;
    if (typeof json === 'function') return this.within(json.call(value));
    if (Array.isArray(value)) return value.map((item) => this.within(item));
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, this.within(item)]));
  }

  /** Header names are expected lower-case. Credentials keep their scheme so evidence shows what kind was sent. */
  header(name: string, value: string): string {
    if (!CREDENTIAL_HEADERS.has(name)) return this.known(value);
    const match = /^(\S+)(\s+)(.*)$/s.exec(value);
    if (match === null) return /^bearer$/i.test(value) ? value : this.#learnToken(value);
    const [, scheme = '', gap = '', credentials = ''] = match;
    return `${this.known(scheme)}${gap}${this.#learnToken(credentials)}`;
  }

  /**
   * What `header(name, value)` shows of the value's first `keep` characters, reading little more of it: a value
   * known now that straddles the cut is hidden whole (LongestMatchReplacer.head). A credential is hidden whole first.
   */
  headerHead(name: string, value: string, keep: number): string {
    return CREDENTIAL_HEADERS.has(name)
      ? this.header(name, value).slice(0, keep)
      : this.#replacer.head(value, keep);
  }

  #keyed(head: string, key: string, value: string, tail: string): string {
    // Already hidden whole (a structured value): nothing to learn.
    if (value === REDACTED) return `${head}${REDACTED}${tail}`;
    if (SECRET_KEYS.has(key)) {
      if (value.length >= MIN_LEARNED_LENGTH) this.addSecret(value);
      return `${head}${REDACTED}${tail}`;
    }
    return `${head}${this.#learnToken(value)}${tail}`;
  }

  #learnToken(value: string): string {
    if (value.length >= MIN_LEARNED_LENGTH) this.addToken(value);
    return redactToken(value);
  }

  #register(value: string, replacement: string, encodings = true): void {
    if (value === '' || this.#known.has(value)) return;
    for (const form of encodings ? wireForms(value) : [value]) {
      if (!this.#known.has(form)) {
        this.#known.add(form);
        this.#replacer.add(form, replacement);
        if (form.length > HEAD_LENGTH) this.#heads.add(form.slice(0, HEAD_LENGTH));
        this.#longest = Math.max(this.#longest, form.length);
      }
    }
  }
}
