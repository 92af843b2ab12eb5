import type { Redactor } from './redact.ts';

export type TargetErrorKind = 'unreachable' | 'reset' | 'timeout' | 'tls' | 'other';

export interface EvidenceRequest {
  readonly method: string;
  readonly url: string;
  /** Lower-case names. */
  readonly headers: Record<string, string>;
  readonly body?: string;
}

export interface EvidenceResponse {
  readonly status: number;
  /** Lower-case names; repeated headers joined with ", ". */
  readonly headers: Record<string, string>;
  readonly body?: string;
}

/**
 * What reports serialize. Redacted and truncated when captured, so it never holds a secret no matter where it ends
 * up.
 */
export interface Evidence {
  readonly label?: string;
  readonly request: EvidenceRequest;
  readonly response?: EvidenceResponse;
  readonly startedAt: string;
  readonly durationMs: number;
  readonly error?: { readonly kind: TargetErrorKind; readonly message: string };
  /** SPEC §5 rule 4: this exchange is the one retry after `rejected` got 401 and `token` fetched a fresh token. */
  readonly refresh?: { readonly rejected: Evidence; readonly token: Evidence };
}

export const DEFAULT_MAX_EVIDENCE_BODY = 4096;
/**
 * Harness reads at most this much of any response body (64 KiB, far above any token response or id-bearing answer);
 * the rest is never read (docs/bounds.md). Small, because a probe keeps every answer of its bursts (a thousand and
 * more) for the whole run: at 1 MiB, a target answering each with an endless body took 2.9 GB.
 */
export const DEFAULT_MAX_BODY_BYTES = 64 * 1024;

/** What a cut body says in evidence and messages. */
const bodyCutNote = (cutAt: number): string => `body cut at ${cutAt} bytes`;

export const truncate = (body: string, max: number): string =>
  body.length <= max
    ? body
    : `${body.slice(0, max)}…[truncated: ${body.length - max} of ${body.length} chars]`;

/**
 * How much of a header value evidence keeps. A probe keeps every exchange's evidence for the whole run: a 15 KB
 * RateLimit-Policy on every answer, kept and redacted whole, cost seconds of redaction and doubled the memory.
 */
export const MAX_EVIDENCE_HEADER_CHARS = 1024;

/**
 * A header value redacted and cut to its start, saying so (a value is a byte string, a byte a character). The cut
 * is copied: V8 keeps a slice's whole parent alive, so evidence would still hold every answer's whole value.
 */
const boundedHeader = (redactor: Redactor, name: string, value: string): string => {
  if (value.length <= MAX_EVIDENCE_HEADER_CHARS) return redactor.header(name, value);
  const head = redactor.headerHead(name, value, MAX_EVIDENCE_HEADER_CHARS);
  const said = `${head}…(${value.length} bytes, first ${MAX_EVIDENCE_HEADER_CHARS} kept)`;
  return Buffer.from(said, 'utf8').toString('utf8');
};

/** Names too: a server can echo a secret as a header name. Two names redacted alike keep both values. */
const redactHeaders = (redactor: Redactor, headers: Record<string, string>): Record<string, string> => {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    const shown = redactor.known(name);
    const redacted = boundedHeader(redactor, name, value);
    out[shown] = out[shown] === undefined ? redacted : `${out[shown]}, ${redacted}`;
  }
  return out;
};

/** Redacts the whole body before truncating, so a secret straddling the cut cannot leave a readable piece. */
const redactBody = (redactor: Redactor, body: string | undefined, max: number): string | undefined =>
  body === undefined || body === '' ? undefined : truncate(redactor.text(body), max);

export const captureRequest = (
  redactor: Redactor,
  method: string,
  url: string,
  headers: Record<string, string>,
  body: string | undefined,
  maxBody: number,
): EvidenceRequest => {
  const captured = redactBody(redactor, body, maxBody);
  return {
    method,
    url: redactor.text(url),
    headers: redactHeaders(redactor, headers),
    ...(captured === undefined ? {} : { body: captured }),
  };
};

/**
 * The body goes first: an access_token it carries is learned before the headers are redacted. `cutAt` is set when
 * harness stopped reading the body there; the evidence then says so, and holds no start of a secret cut short.
 */
export const captureResponse = (
  redactor: Redactor,
  status: number,
  headers: Record<string, string>,
  body: string,
  maxBody: number,
  cutAt?: number,
): EvidenceResponse => {
  const redacted =
    cutAt === undefined
      ? redactBody(redactor, body, maxBody)
      : truncate(redactor.text(redactor.withoutCutValue(body)), maxBody);
  const captured = cutAt === undefined ? redacted : `${redacted ?? ''} (${bodyCutNote(cutAt)})`;
  return {
    status,
    headers: redactHeaders(redactor, headers),
    ...(captured === undefined ? {} : { body: captured }),
  };
};

/**
 * One HTTP request and its response. `evidence` is safe to store anywhere; `status`, `headers` and the body accessors
 * are the raw, unredacted response for code that needs it (a token, an id). JSON.stringify yields only the evidence.
 */
export class Exchange {
  readonly #body: string;

  constructor(
    readonly evidence: Evidence,
    readonly status: number,
    /** Lower-case names, unredacted. */
    readonly headers: Readonly<Record<string, string>>,
    body: string,
    /** Set when the body was longer than harness reads: `text()` is its first `bodyCutAt` bytes only. */
    readonly bodyCutAt?: number,
  ) {
    this.#body = body;
  }

  get refreshed(): boolean {
    return this.evidence.refresh !== undefined;
  }

  /** The full, unredacted body. */
  text(): string {
    return this.#body;
  }

  /** The full, unredacted body parsed as JSON; throws SyntaxError when it is not JSON or was cut. */
  json(): unknown {
    if (this.bodyCutAt !== undefined) throw new SyntaxError(`${bodyCutNote(this.bodyCutAt)}, not parsed`);
    return JSON.parse(this.#body);
  }

  /** The same response, recorded as the retry that followed a 401 and a token refresh. */
  withRefresh(rejected: Evidence, token: Evidence): Exchange {
    return new Exchange(
      { ...this.evidence, refresh: { rejected, token } },
      this.status,
      this.headers,
      this.#body,
      this.bodyCutAt,
    );
  }

  toJSON(): Evidence {
    return this.evidence;
  }
}

/** A 2xx: the only answer that shows a request was served (and, for a limit, admitted). */
export const isSuccess = (status: number | undefined): boolean =>
  status !== undefined && status >= 200 && status < 300;
