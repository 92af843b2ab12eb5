// Success responses. SPEC.md shows no response payloads; these are small, plausible choices. Handlers are keyed by
// bucket because each §4 endpoint has a bucket of its own and all Observability endpoints share one, so the
// Record type makes the compiler check that every endpoint has a handler.
import { randomUUID } from 'node:crypto';
import type { BucketId, PathId } from '../spec/index.ts';
import { type PreparedResponse, prepare } from './http.ts';

/** Ids the server issued, remembered so status reads can tell known from unknown ones; oldest forgotten first. */
export class IdRegistry {
  private readonly ids = new Set<string>();
  constructor(private readonly capacity = 10_000) {}

  issue(): string {
    const id = randomUUID();
    if (this.ids.size >= this.capacity) this.ids.delete(this.ids.values().next().value!);
    this.ids.add(id);
    return id;
  }

  has(id: string): boolean {
    return this.ids.has(id);
  }
}

export interface HandlerContext {
  readonly baseUrl: string;
  /** Not kept per tenant (SPEC.md is silent): any tenant may read any issued id. */
  readonly ids: Readonly<Record<PathId, IdRegistry>>;
}

/** `id` is the path id, already checked to be one the server issued. */
export type Handler = (context: HandlerContext, id: string | undefined) => PreparedResponse;

const ACCEPTED = prepare(202, { status: 'accepted' });
const SCHEDULE = prepare(200, {
  rules: [
    { rule_id: 'BR1', schedule: '0 2 * * *', enabled: true },
    { rule_id: 'BR2', schedule: '30 3 * * 1', enabled: false },
  ],
});
const OBSERVABILITY = prepare(200, { items: [], total: 0 });

export const HANDLERS: Readonly<Record<BucketId, Handler>> = {
  'transaction-event': () => ACCEPTED,
  'rules-rerun': () => prepare(202, { rerun_id: randomUUID() }),
  'rules-schedule': () => SCHEDULE,
  'batch-upload-url': ({ baseUrl, ids }) => {
    const batchId = ids.batch_id.issue();
    return prepare(200, { url: `${baseUrl}/upload/${batchId}`, batch_id: batchId });
  },
  'batch-status': (_, id) => prepare(200, { batch_id: id, status: 'pending' }),
  'batch-validation-result': (_, id) => prepare(200, { batch_id: id, valid: true, errors: [] }),
  'rules-execute': ({ ids }) => prepare(202, { execution_id: ids.execution_id.issue() }),
  'rules-status': (_, id) => prepare(200, { execution_id: id, status: 'completed' }),
  observability: () => OBSERVABILITY,
};
