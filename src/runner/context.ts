// What a running check sees: the session's calls, each recorded as this check's evidence unless the check chooses
// what to keep (a probe of 500 requests keeps the telling few).
import type { Evidence, Exchange } from '../client/index.ts';
import type { EndpointSpec } from '../spec/index.ts';
import { clock } from './bucket-log.ts';
import type { LimitTimeline } from './limit-timeline.ts';
import type { CallOptions, Session } from './session.ts';
import type { Target } from './target.ts';

export class CheckContext {
  readonly evidence: Evidence[] = [];
  /** Set by checks whose key exchange is not simply the last one recorded (a loop, a wait). */
  repro: string[] | undefined;
  /** Set by a limit check that FAILs on a proof, for the report's picture of it. */
  timeline: LimitTimeline | undefined;

  constructor(
    readonly id: string,
    readonly session: Session,
  ) {}

  get target(): Target {
    return this.session.target;
  }

  record(...exchanges: readonly (Exchange | Evidence)[]): void {
    for (const exchange of exchanges)
      this.evidence.push('evidence' in exchange ? exchange.evidence : exchange);
  }

  async call(endpoint: EndpointSpec, options: CallOptions = {}): Promise<Exchange> {
    const exchange = await this.session.call(endpoint, options);
    this.record(exchange);
    return exchange;
  }

  /** Calls with exactly this Authorization value (or none), for checks that send bad credentials. */
  async raw(endpoint: EndpointSpec, authorization: string | undefined, label: string): Promise<Exchange> {
    const exchange = await this.session.api.raw(
      await this.session.request(endpoint, { label }),
      authorization,
    );
    this.record(exchange);
    return exchange;
  }

  /** POSTs exactly this body to the token endpoint; `asSpec` when it is the request SPEC.md describes (see session.ts). */
  async tokenRequest(body: string, contentType: string, label: string, asSpec = false): Promise<Exchange> {
    const exchange = await this.session.http.tokenRequestOfCheck(
      {
        method: 'POST',
        url: this.target.profile.auth_url,
        headers: { 'content-type': contentType },
        body,
        label,
      },
      asSpec,
    );
    this.record(exchange);
    return exchange;
  }

  /**
   * Runs `send` once the endpoint's bucket has room for `requests` more, counting every request harness sent it, and
   * holds the bucket meanwhile (see Session.holding), so no probe or other check takes that room first.
   */
  withRoom<T>(endpoint: EndpointSpec, requests: number, send: () => Promise<T>): Promise<T> {
    return this.session.holding(endpoint.bucket, async () => {
      const limit = this.target.limitOf(endpoint.bucket);
      const at = this.session.log.roomAt(endpoint.bucket, this.target.profile.tenant, limit, requests);
      const ms = at - clock();
      if (ms > 0) await this.wait(ms, `for room in the ${endpoint.bucket} limit`);
      return send();
    });
  }

  wait(ms: number, why: string): Promise<void> {
    return this.session.wait(this.id, ms, why);
  }
}
