// Every request harness sends to an API endpoint, filed under the rate-limit bucket it draws from, with when it left
// and when its answer was in. The limit checks judge from this log (see probe/limit-bounds.ts), so traffic of other checks
// (path-id fetches, permission and bearer checks, which a gateway in front of authentication counts too) is never
// forgotten, and a probe can wait until its bucket has been quiet for a whole window.
import type { Exchange } from '../client/index.ts';
import type { BucketId } from '../spec/index.ts';
import type { LimitWindow, Observation } from './probe/limit-bounds.ts';

export interface LoggedRequest {
  readonly sent: number;
  readonly answered: number;
  readonly status: number | undefined;
  /** Tenant and client of the bearer token sent, when it was one of ours; undefined otherwise. */
  readonly tenant: string | undefined;
  readonly clientId: string | undefined;
  /** Request path with ids filled in. */
  readonly path: string;
  readonly label: string;
  readonly exchange: Exchange | undefined;
}

/** A logged request as one tenant's limiter sees it. */
export interface ObservedRequest extends Observation {
  readonly request: LoggedRequest;
}

export interface LogView {
  /** Only requests of this tenant count as admitted for sure; requests with no token of ours may have counted. */
  readonly tenant: string;
  /** Narrows the bucket to these requests (a hypothesis such as "each client has its own limit"). */
  readonly only?: (request: LoggedRequest) => boolean;
}

export class BucketLog {
  readonly #entries = new Map<BucketId, LoggedRequest[]>();
  readonly #inFlight = new Map<BucketId, number>();

  /** Marks a request to `bucket` as under way; call the returned function with its record once it is answered. */
  begin(bucket: BucketId): (request: LoggedRequest) => void {
    this.#inFlight.set(bucket, (this.#inFlight.get(bucket) ?? 0) + 1);
    return (request) => {
      this.#inFlight.set(bucket, (this.#inFlight.get(bucket) ?? 1) - 1);
      let list = this.#entries.get(bucket);
      if (list === undefined) {
        list = [];
        this.#entries.set(bucket, list);
      }
      list.push(request);
    };
  }

  /** Everything logged for the bucket so far, in answer order. */
  entries(bucket: BucketId): readonly LoggedRequest[] {
    return this.#entries.get(bucket) ?? [];
  }

  /** The bucket as one tenant's limiter sees it, as observations the bounds can judge. */
  view(
    bucket: BucketId,
    { tenant, only }: LogView,
    from: readonly LoggedRequest[] = this.entries(bucket),
  ): ObservedRequest[] {
    return from
      .filter((r) => r.tenant === undefined || (r.tenant === tenant && (only === undefined || only(r))))
      .map((r) => ({
        sent: r.sent,
        answered: r.answered,
        status: r.status,
        ours: r.tenant === tenant,
        label: r.label,
        request: r,
      }));
  }

  /** When the bucket's last answer came in (-Infinity when nothing was sent); see busy() for requests under way. */
  lastAnswer(bucket: BucketId): number {
    return this.entries(bucket).reduce((last, r) => Math.max(last, r.answered), Number.NEGATIVE_INFINITY);
  }

  /**
   * When the bucket will have room for `requests` more whatever the limiter's kind: once no more than the limit
   * less that many of our requests not refused were answered within the last window (the bound (L) then holds).
   */
  roomAt(bucket: BucketId, tenant: string, limit: LimitWindow, requests = 1): number {
    const recent = this.view(bucket, { tenant })
      .filter((o) => o.status !== 429)
      .map((o) => o.answered)
      .sort((a, b) => b - a);
    return (recent[limit.count - requests] ?? Number.NEGATIVE_INFINITY) + limit.windowMs;
  }

  busy(bucket: BucketId): boolean {
    return (this.#inFlight.get(bucket) ?? 0) > 0;
  }
}
