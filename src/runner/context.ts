// What a running check sees, and all it sees: the session's calls, each recorded as this check's evidence unless the
// check chooses what to keep (a probe of 500 requests keeps the telling few), and the few other things of the run a
// check needs (a client, a token, the bucket's log). The session itself is the runner's (sessionOf), which checks
// cannot import (test/architecture/check-imports.test.ts), so no check reaches past this narrow context.
import type { Evidence, Exchange, TokenClient } from '../client/index.ts';
import type { Target } from '../profile/target.ts';
import type { BucketId, ClientRole, EndpointSpec, PathId } from '../spec/index.ts';
import type { LoggedRequest, LogView, ObservedRequest } from './bucket-log.ts';
import { formWord, type Sent, type Written } from './repro.ts';
import type { CallOptions, Session } from './session.ts';
import type { ShellWord } from './shell-word.ts';

const sessions = new WeakMap<CheckContext, Session>();

/** The runner's way to the session behind a check's context (the probe, the preconditions, the verdict). */
export const sessionOf = (ctx: CheckContext): Session => sessions.get(ctx)!;

export class CheckContext {
  readonly evidence: Evidence[] = [];
  /** The client whose token or credentials each exchange sent, where it was not the primary (see sent). */
  readonly #clients = new Map<Evidence, ClientRole>();
  /** What the check wrote itself of a request it sent, where evidence hides what harness made (see sent). */
  readonly #written = new Map<Evidence, Written>();
  /** What `evidence` holds, so recording a probe's whole burst stays linear. */
  readonly #recorded = new Set<Evidence>();

  constructor(
    readonly id: string,
    session: Session,
  ) {
    sessions.set(this, session);
  }

  /** The one record of the session is the runner's map (sessionOf): nothing to keep in step here. */
  get #session(): Session {
    return sessionOf(this);
  }

  get target(): Target {
    return this.#session.target;
  }

  /** The profile's client in `role`; a SKIP by choice when the profile has none. */
  client(role: ClientRole): TokenClient {
    return this.#session.client(role);
  }

  /**
   * A token of `role`'s client, as every call gets it (shared, renewed before it expires), still in use at `validAt`
   * if given: a request timed to the millisecond must not wait for a renewal's round trip then.
   */
  token(role: ClientRole, validAt?: number): Promise<string> {
    return this.#session.tokens.token(this.client(role), validAt);
  }

  /** A token request of its own for `role`'s client, outside the shared token manager, and its exchange. */
  async requestToken(role: ClientRole): Promise<Exchange> {
    return this.#sentBy(role, await this.#session.tokens.requestToken(this.client(role)));
  }

  /**
   * An exchange as its reproduction sends it again: as the client whose token or credentials it sent (the primary
   * unless the check called as another: AUTH-FORBIDDEN's restricted client, a sharing variant's), and with what the
   * check made itself (a wrong secret, a cut token) written as it made it.
   */
  sent(evidence: Evidence): Sent {
    const written = this.#written.get(evidence);
    return {
      evidence,
      client: this.#clients.get(evidence) ?? 'primary',
      ...(written === undefined ? {} : { written }),
    };
  }

  #sentBy(role: ClientRole, exchange: Exchange): Exchange {
    if (role !== 'primary') this.#clients.set(exchange.evidence, role);
    return exchange;
  }

  /** Forgets `role`'s shared token, so the next call asks for a new one. */
  invalidateToken(role: ClientRole): void {
    this.#session.tokens.invalidate(this.client(role));
  }

  /** Whether the run is still going `ms` from now, or its deadline comes first. */
  endsAfter(ms: number): boolean {
    return this.#session.endsAfter(ms);
  }

  /** Runs `produce` once per run for `key`: checks that share a measurement share its promise. */
  once<T>(key: string, produce: () => Promise<T>): Promise<T> {
    return this.#session.once(key, produce);
  }

  /** How `harness replay` reaches this target again, for a reproduction; none in-process. */
  get replayArguments(): readonly string[] | undefined {
    return this.#session.replayArguments;
  }

  /** The bucket as one tenant's limiter sees it: every request logged so far, or those of `from`. */
  bucketView(bucket: BucketId, view: LogView, from?: readonly LoggedRequest[]): ObservedRequest[] {
    return this.#session.log.view(bucket, view, from);
  }

  /** An id of `name` other than the profile's, from what the target answered (a second batch, say). */
  otherPathId(name: PathId): Promise<string> {
    return this.#session.otherPathId(name);
  }

  /** A call the check records itself, if at all (a loop keeps its last answer). */
  async callUnrecorded(endpoint: EndpointSpec, options: CallOptions = {}): Promise<Exchange> {
    return this.#sentBy(options.client ?? 'primary', await this.#session.call(endpoint, options));
  }

  /**
   * Keeps each exchange once, however often it is recorded: checks that share one (the token request several examine)
   * record it again, and a report or replay showing it twice would read as two requests sent.
   */
  record(...exchanges: readonly (Exchange | Evidence)[]): void {
    for (const exchange of exchanges) {
      const evidence = 'evidence' in exchange ? exchange.evidence : exchange;
      if (this.#recorded.has(evidence)) continue;
      this.#recorded.add(evidence);
      this.evidence.push(evidence);
    }
  }

  /** Records the exchanges of requests in the bucket log, each as sent by the client whose token it carried. */
  recordLogged(requests: readonly (LoggedRequest | undefined)[]): void {
    const { clients } = this.target.profile;
    for (const request of requests) {
      if (request?.exchange === undefined) continue;
      const role = (Object.keys(clients) as ClientRole[]).find(
        (r) => clients[r]?.client_id === request.clientId,
      );
      this.record(this.#sentBy(role ?? 'primary', request.exchange));
    }
  }

  async call(endpoint: EndpointSpec, options: CallOptions = {}): Promise<Exchange> {
    const exchange = await this.callUnrecorded(endpoint, options);
    this.record(exchange);
    return exchange;
  }

  /**
   * Calls with exactly this Authorization value (or none), for checks that send bad credentials; `written` is how
   * a shell makes that value from $ACCESS_TOKEN, where the check derived it from a token (cut it, altered it).
   */
  async raw(
    endpoint: EndpointSpec,
    authorization: string | undefined,
    label: string,
    written?: ShellWord,
  ): Promise<Exchange> {
    const exchange = await this.#session.api.raw(
      await this.#session.request(endpoint, { label }),
      authorization,
    );
    if (written !== undefined) this.#written.set(exchange.evidence, { authorization: written });
    this.record(exchange);
    return exchange;
  }

  /** POSTs exactly this body to the token endpoint; `asSpec` when it is the request SPEC.md describes (see session.ts). */
  async tokenRequest(body: string, contentType: string, label: string, asSpec = false): Promise<Exchange> {
    const exchange = await this.#session.http.tokenRequestOfCheck(
      {
        method: 'POST',
        url: this.target.profile.auth_url,
        headers: { 'content-type': contentType },
        body,
        label,
      },
      asSpec,
    );
    // Evidence hides every client_secret field, a wrong one a check made up too: the form is written from what was sent.
    if (contentType === 'application/x-www-form-urlencoded') {
      const { profile } = this.target;
      const { redactor } = this.#session.http;
      this.#written.set(exchange.evidence, {
        body: formWord(body, { profile, hide: (t) => redactor.known(t) }),
      });
    }
    this.record(exchange);
    return exchange;
  }

  /**
   * Runs `send` once the endpoint's bucket has room for `requests` more, counting every request harness sent it, and
   * holds the bucket meanwhile (see Session.holding), so no probe or other check takes that room first.
   */
  withRoom<T>(endpoint: EndpointSpec, requests: number, send: () => Promise<T>): Promise<T> {
    return this.#session.holding(endpoint.bucket, async () => {
      const limit = this.target.limitOf(endpoint.bucket);
      const at = this.#session.log.roomAt(endpoint.bucket, this.target.profile.tenant, limit, requests);
      const ms = at - this.now();
      if (ms > 0) await this.wait(ms, `for room in the ${endpoint.bucket} limit`);
      return send();
    });
  }

  wait(ms: number, why: string): Promise<void> {
    return this.#session.wait(this.id, ms, why);
  }

  /** The run's clock: epoch ms, the time every logged request carries. */
  now(): number {
    return this.#session.clock.now();
  }
}
