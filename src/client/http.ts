import type { Readable } from 'node:stream';
import { type Dispatcher, EnvHttpProxyAgent } from 'undici';
import { type Clock, REAL_CLOCK } from '../clock.ts';
import { classifyError, describeFailure, TargetError } from './errors.ts';
import {
  captureRequest,
  captureResponse,
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_MAX_EVIDENCE_BODY,
  type Evidence,
  Exchange,
  type TargetErrorKind,
} from './evidence.ts';
import { type ProxyOptions, type TlsOptions, tlsConnectOptions } from './network.ts';
import { Redactor } from './redact.ts';

export interface HttpClientOptions {
  /** Keep-alive connections per origin. */
  connections?: number;
  connectTimeoutMs?: number;
  /** Whole request: queueing for a connection, connecting, sending, and reading the full response body. */
  requestTimeoutMs?: number;
  /** Evidence bodies longer than this many characters are cut and marked. */
  maxEvidenceBody?: number;
  /** Response bytes read at most; past it the connection is dropped and the exchange marked (default 64 KiB). */
  maxBodyBytes?: number;
  redactor?: Redactor;
  tls?: TlsOptions;
  /** A forward proxy; none unless given (the CLI passes HTTP_PROXY/HTTPS_PROXY/NO_PROXY, see proxyFromEnv). */
  proxy?: ProxyOptions;
  /** What times each exchange and its timeout (the real clock unless given). */
  clock?: Clock;
  /** What carries requests (undici's pools unless given: a test's simulated network). */
  transport?: Transport;
}

export interface TransportRequest {
  readonly origin: string;
  readonly method: string;
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body: string | undefined;
  readonly signal: AbortSignal;
}

export interface TransportResponse {
  readonly statusCode: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: Readable;
}

/** Carries one request to the target and its answer back; rejects only when the target cannot be talked to. */
export type Transport = (request: TransportRequest) => Promise<TransportResponse>;

export interface SendRequest {
  method: string;
  url: string;
  headers?: Record<string, string>;
  body?: string | undefined;
  /** Carried into the evidence so reports can say what the exchange was for. */
  label?: string;
}

export const lowerCaseHeaders = (headers: Record<string, string> | undefined): Record<string, string> => {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) out[name.toLowerCase()] = value;
  return out;
};

const flattenHeaders = (headers: Record<string, string | string[] | undefined>): Record<string, string> => {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
};

/**
 * Reads at most `max` bytes, then destroys the stream: an endless or huge body ends at the cap at once, and memory
 * stays bounded by it.
 */
const readCapped = async (body: Readable, max: number): Promise<{ text: string; cutAt?: number }> => {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    const buffer = chunk as Buffer;
    if (size + buffer.length > max) {
      chunks.push(buffer.subarray(0, max - size));
      body.destroy();
      return { text: Buffer.concat(chunks).toString('utf8'), cutAt: max };
    }
    chunks.push(buffer);
    size += buffer.length;
  }
  return { text: Buffer.concat(chunks).toString('utf8') };
};

/** Why a request's timeout stops: a plain value, as a DOMException for each of a probe's thousands costs its stack. */
const ANSWERED = 'answered';

/**
 * Sends requests through keep-alive undici pools, one per origin, reached directly or through the forward proxy
 * (a CONNECT tunnel, TLS to the target inside it). HTTP statuses, whatever they are, resolve; only failing to talk
 * to the target rejects, with a TargetError.
 */
export class HttpClient {
  /** Every exchange's evidence is redacted with this; register secrets here before sending them. */
  readonly redactor: Redactor;
  #dispatcher: Dispatcher | undefined;
  readonly #options: HttpClientOptions;
  readonly #requestTimeoutMs: number;
  readonly #maxEvidenceBody: number;
  readonly #maxBodyBytes: number;
  /** What times each exchange (and the bucket log's entries, see the runner's counting client). */
  readonly clock: Clock;

  constructor(options: HttpClientOptions = {}) {
    this.redactor = options.redactor ?? new Redactor();
    this.#options = options;
    this.clock = options.clock ?? REAL_CLOCK;
    this.#requestTimeoutMs = options.requestTimeoutMs ?? 15_000;
    this.#maxEvidenceBody = options.maxEvidenceBody ?? DEFAULT_MAX_EVIDENCE_BODY;
    this.#maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  }

  async send(req: SendRequest): Promise<Exchange> {
    const url = new URL(req.url);
    const headers = lowerCaseHeaders(req.headers);
    const label = req.label === undefined ? {} : { label: req.label };
    const start = this.clock.now();
    const startedAt = new Date(start).toISOString();
    const elapsed = () => Math.round((this.clock.now() - start) * 100) / 100;
    const request = captureRequest(
      this.redactor,
      req.method,
      req.url,
      headers,
      req.body,
      this.#maxEvidenceBody,
    );
    const controller = new AbortController();
    const answered = new AbortController();
    this.clock.sleep(this.#requestTimeoutMs, answered.signal).then(
      () => controller.abort(),
      () => undefined,
    );
    try {
      const res = await this.#transport({
        origin: url.origin,
        method: req.method,
        path: `${url.pathname}${url.search}`,
        headers,
        body: req.body,
        signal: controller.signal,
      });
      const { text, cutAt } = await readCapped(res.body, this.#maxBodyBytes);
      const raw = flattenHeaders(res.headers);
      const response = captureResponse(
        this.redactor,
        res.statusCode,
        raw,
        text,
        this.#maxEvidenceBody,
        cutAt,
      );
      const evidence: Evidence = { ...label, request, response, startedAt, durationMs: elapsed() };
      return new Exchange(evidence, res.statusCode, raw, text, cutAt);
    } catch (err) {
      // Our timer aborts (the whole-request timeout); the run's end destroys the connections instead, which
      // classifyError names.
      const kind: TargetErrorKind = controller.signal.aborted ? 'timeout' : classifyError(err);
      const message = this.redactor.text(describeFailure(kind, req.method, request.url, err));
      const evidence: Evidence = {
        ...label,
        request,
        startedAt,
        durationMs: elapsed(),
        error: { kind, message },
      };
      throw new TargetError(kind, message, evidence, { cause: err });
    } finally {
      answered.abort(ANSWERED);
    }
  }

  /** Aborts every request in flight and drops every connection, for a run that must end now. */
  async destroy(): Promise<void> {
    const dispatcher = this.#dispatcher;
    this.#dispatcher = undefined;
    await dispatcher?.destroy();
  }

  /** Releases every connection; the client stays usable and reconnects on the next send. */
  async close(): Promise<void> {
    const dispatcher = this.#dispatcher;
    this.#dispatcher = undefined;
    await dispatcher?.close();
  }

  #transport(request: TransportRequest): Promise<TransportResponse> {
    return this.#options.transport?.(request) ?? this.#agent().request(request);
  }

  #agent(): Dispatcher {
    if (this.#dispatcher === undefined) {
      const { connections = 64, connectTimeoutMs = 5_000, tls = {}, proxy = {} } = this.#options;
      const target = { timeout: connectTimeoutMs, ...tlsConnectOptions(tls) };
      this.#dispatcher = new EnvHttpProxyAgent({
        connections,
        // Direct connections use `connect`; through a proxy, `requestTls` is the TLS inside the tunnel and
        // `proxyTls` the TLS to an https:// proxy, which may sit behind the same private CA.
        connect: target,
        requestTls: target,
        proxyTls: {
          timeout: connectTimeoutMs,
          ...tlsConnectOptions({ ...tls, cert: undefined, key: undefined }),
        },
        // Empty strings, not undefined: undefined would make undici read process.env itself.
        httpProxy: proxy.httpProxy ?? '',
        httpsProxy: proxy.httpsProxy ?? '',
        noProxy: proxy.noProxy ?? '',
      });
    }
    return this.#dispatcher;
  }
}
