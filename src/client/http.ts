import { performance } from 'node:perf_hooks';
import { Pool } from 'undici';
import { classifyError, describeFailure, TargetError } from './errors.ts';
import {
  captureRequest,
  captureResponse,
  DEFAULT_MAX_EVIDENCE_BODY,
  type Evidence,
  Exchange,
  type TargetErrorKind,
} from './evidence.ts';
import { Redactor } from './redact.ts';

export interface HttpClientOptions {
  /** Keep-alive connections per origin. */
  connections?: number;
  connectTimeoutMs?: number;
  /** Whole request: queueing for a connection, connecting, sending, and reading the full response body. */
  requestTimeoutMs?: number;
  /** Evidence bodies longer than this many characters are cut and marked. */
  maxEvidenceBody?: number;
  redactor?: Redactor;
}

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

const elapsed = (start: number): number => Math.round((performance.now() - start) * 100) / 100;

/**
 * Sends requests through one keep-alive undici Pool per origin. HTTP statuses, whatever they are, resolve; only
 * failing to talk to the target rejects, with a TargetError.
 */
export class HttpClient {
  /** Every exchange's evidence is redacted with this; register secrets here before sending them. */
  readonly redactor: Redactor;
  readonly #pools = new Map<string, Pool>();
  readonly #connections: number;
  readonly #connectTimeoutMs: number;
  readonly #requestTimeoutMs: number;
  readonly #maxEvidenceBody: number;

  constructor(options: HttpClientOptions = {}) {
    this.redactor = options.redactor ?? new Redactor();
    this.#connections = options.connections ?? 64;
    this.#connectTimeoutMs = options.connectTimeoutMs ?? 5_000;
    this.#requestTimeoutMs = options.requestTimeoutMs ?? 15_000;
    this.#maxEvidenceBody = options.maxEvidenceBody ?? DEFAULT_MAX_EVIDENCE_BODY;
  }

  async send(req: SendRequest): Promise<Exchange> {
    const url = new URL(req.url);
    const headers = lowerCaseHeaders(req.headers);
    const label = req.label === undefined ? {} : { label: req.label };
    const startedAt = new Date().toISOString();
    const start = performance.now();
    const request = captureRequest(
      this.redactor,
      req.method,
      req.url,
      headers,
      req.body,
      this.#maxEvidenceBody,
    );
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), this.#requestTimeoutMs);
    try {
      const res = await this.#pool(url.origin).request({
        method: req.method,
        path: `${url.pathname}${url.search}`,
        headers,
        body: req.body,
        signal: controller.signal,
      });
      const body = await res.body.text();
      const raw = flattenHeaders(res.headers);
      const response = captureResponse(this.redactor, res.statusCode, raw, body, this.#maxEvidenceBody);
      const evidence: Evidence = { ...label, request, response, startedAt, durationMs: elapsed(start) };
      return new Exchange(evidence, res.statusCode, raw, body);
    } catch (err) {
      // Only our timer aborts, so an abort of any shape is the whole-request timeout.
      const kind: TargetErrorKind = controller.signal.aborted ? 'timeout' : classifyError(err);
      const message = this.redactor.text(describeFailure(kind, req.method, request.url, err));
      const evidence: Evidence = {
        ...label,
        request,
        startedAt,
        durationMs: elapsed(start),
        error: { kind, message },
      };
      throw new TargetError(kind, message, evidence, { cause: err });
    } finally {
      clearTimeout(timer);
    }
  }

  /** Releases every connection; the client stays usable and reconnects on the next send. */
  async close(): Promise<void> {
    const pools = [...this.#pools.values()];
    this.#pools.clear();
    await Promise.all(pools.map((pool) => pool.close()));
  }

  #pool(origin: string): Pool {
    let pool = this.#pools.get(origin);
    if (pool === undefined) {
      pool = new Pool(origin, {
        connections: this.#connections,
        connect: { timeout: this.#connectTimeoutMs },
      });
      this.#pools.set(origin, pool);
    }
    return pool;
  }
}
