// The session's HTTP client: counts every request by endpoint, files each API request in the bucket log, remembers
// the token endpoint's failure, and keeps to the run's end and request budget.
import {
  type Exchange,
  HttpClient,
  type HttpClientOptions,
  type SendRequest,
  TargetError,
} from '../client/index.ts';
import { isHarnessError } from '../errors.ts';
import type { Target } from '../profile/target.ts';
import type { BucketId } from '../spec/index.ts';
import { BucketLog } from './bucket-log.ts';
import type { RequestBudget } from './budget.ts';
import { inconclusive, skip } from './grades.ts';

export const TOKEN_ENDPOINT_KEY = 'POST {auth_url}';

/** Room for the widest burst a probe sends (a limit's worth at once, see probe/probe.ts) plus other lanes' traffic. */
const CONNECTIONS = 1100;

/**
 * Counts every request by endpoint, so a run can show it kept to its plan, and files each API request in the
 * bucket log with its timing and the tenant whose token it carried.
 */
export class CountingHttpClient extends HttpClient {
  readonly sent = new Map<string, number>();
  readonly log = new BucketLog();
  /**
   * The token endpoint's first failure to answer the SPEC.md request (hang, reset, garbage): later requests of the
   * token manager fail with it at once, and checks' malformed requests SKIP, instead of waiting out timeouts of their own.
   */
  #tokenEndpointDown: TargetError | undefined;

  constructor(
    readonly keyOf: (req: SendRequest) => string,
    readonly bucketOf: (key: string) => BucketId | undefined,
    readonly ownerOf: (req: SendRequest) => { tenant: string; clientId: string } | undefined,
    /** The run's end: nothing is sent after it. */
    readonly ended: AbortSignal,
    options: HttpClientOptions,
    readonly budget: RequestBudget | undefined,
  ) {
    super({ ...options, connections: CONNECTIONS });
  }

  override async send(req: SendRequest): Promise<Exchange> {
    if (this.ended.aborted) return inconclusive(String(this.ended.reason));
    const key = this.keyOf(req);
    if (key === TOKEN_ENDPOINT_KEY) {
      const down = this.#tokenEndpointDown;
      if (down !== undefined) {
        const message = `not sent: the token endpoint failed to answer earlier in this run: ${down.message}`;
        throw new TargetError(down.kind, message, down.evidence, { cause: down });
      }
      return this.#sendToTokenEndpoint(req, true);
    }
    this.budget?.spend(key);
    this.sent.set(key, (this.sent.get(key) ?? 0) + 1);
    const bucket = this.bucketOf(key);
    if (bucket === undefined) return super.send(req);
    const owner = this.ownerOf(req);
    const done = this.log.begin(bucket);
    const sent = this.clock.now();
    let exchange: Exchange | undefined;
    try {
      exchange = await super.send(req);
      return exchange;
    } finally {
      done({
        sent,
        answered: this.clock.now(),
        status: exchange?.status,
        tenant: owner?.tenant,
        clientId: owner?.clientId,
        path: new URL(req.url).pathname,
        label: req.label ?? key,
        exchange,
      });
    }
  }

  /**
   * A check's own token request. One as SPEC.md shapes it (`asSpec`) is always sent, so AUTH-TOKEN-FORM grades the
   * endpoint on its own answer. Any other is malformed on purpose: its failure says nothing of the SPEC.md request,
   * so it is not remembered, and once that request failed it is not sent (SKIP) rather than FAILed on another's error.
   */
  tokenRequestOfCheck(req: SendRequest, asSpec: boolean): Promise<Exchange> {
    if (this.ended.aborted) return inconclusive(String(this.ended.reason));
    const down = this.#tokenEndpointDown;
    if (!asSpec && down !== undefined) {
      return skip(`no token endpoint answer: see AUTH-TOKEN-FORM (${down.kind}: ${down.message})`);
    }
    return this.#sendToTokenEndpoint(req, asSpec);
  }

  async #sendToTokenEndpoint(req: SendRequest, asSpec: boolean): Promise<Exchange> {
    this.budget?.spend(TOKEN_ENDPOINT_KEY);
    this.sent.set(TOKEN_ENDPOINT_KEY, (this.sent.get(TOKEN_ENDPOINT_KEY) ?? 0) + 1);
    try {
      return await super.send(req);
    } catch (error) {
      if (asSpec && isHarnessError(error, 'HARNESS_TARGET')) this.#tokenEndpointDown ??= error;
      throw error;
    }
  }
}

export const endpointMatcher = (target: Target) => {
  const patterns = target.endpoints.map((e) => ({
    key: e.key,
    method: e.method,
    path: new RegExp(`^${e.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{\w+\\?\}/g, '[^/]+')}$`),
  }));
  const base = new URL(target.profile.base_url).pathname.replace(/\/+$/, '');
  return (req: SendRequest): string => {
    if (req.url.split('?')[0] === target.profile.auth_url) return TOKEN_ENDPOINT_KEY;
    const path = new URL(req.url).pathname.slice(base.length);
    return patterns.find((p) => p.method === req.method && p.path.test(path))?.key ?? `${req.method} ${path}`;
  };
};
