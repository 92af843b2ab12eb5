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

/** The forms a value takes on the wire: raw, percent-encoded, form-encoded and inside a JSON string. */
const wireForms = (value: string): Set<string> =>
  new Set([
    value,
    encodeURIComponent(value),
    new URLSearchParams({ v: value }).toString().slice(2),
    JSON.stringify(value).slice(1, -1),
  ]);

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

  /** Shown as prefix plus hash wherever it appears (access tokens and values derived from them). */
  addToken(value: string): void {
    this.#register(value, redactToken(value));
  }

  /** Redacts a body or URL: known secret-bearing fields first (learning their values), then every known secret. */
  text(s: string): string {
    if (s === '') return s;
    const keyed = s
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
    return `${scheme}${gap}${this.#learnToken(credentials)}`;
  }

  #keyed(head: string, key: string, value: string, tail: string): string {
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

  #register(value: string, replacement: string): void {
    if (value === '' || this.#known.has(value)) return;
    for (const form of wireForms(value)) {
      if (!this.#known.has(form)) {
        this.#known.add(form);
        this.#replacer.add(form, replacement);
        if (form.length > HEAD_LENGTH) this.#heads.add(form.slice(0, HEAD_LENGTH));
        this.#longest = Math.max(this.#longest, form.length);
      }
    }
  }
}
