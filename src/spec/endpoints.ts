// SPEC.md §4 (endpoint table) and §8 (limits table) as data. Every other part of harness reads these.

export type HttpMethod = 'GET' | 'POST';
export type Clause = `§${string}`;

/** The SPEC.md section a clause cites: '§5 rule 3' belongs to '§5'. */
export const sectionOf = (clause: string): string =>
  /^§\d+/.exec(clause)?.[0] ?? clause.split(/\s/)[0] ?? clause;

export type ApiGroup =
  | 'Transaction API'
  | 'Transaction Batch API'
  | 'Rule Execution API'
  | 'Rule Rerun API'
  | 'Rule Schedule API'
  | 'Observability API';

/** "METHOD /path/{id}" exactly as SPEC.md §4 writes it; the stable key users write in profiles. */
export type EndpointKey = `${HttpMethod} /${string}`;

export type PathId = 'batch_id' | 'execution_id';

export interface Limit {
  readonly count: number;
  readonly per: 'second' | 'minute';
}

/** A rate-limit bucket: SPEC.md §8 rule 1 keys it per tenant; the table gives its size. */
export interface Bucket {
  readonly id: BucketId;
  readonly limit: Limit;
  readonly clause: Clause;
  readonly note?: string;
}

export interface EndpointSpec {
  readonly key: EndpointKey;
  readonly method: HttpMethod;
  /** Path template relative to {base_url}; ids in braces. */
  readonly path: string;
  readonly group: ApiGroup;
  readonly bucket: BucketId;
  readonly pathIds: readonly PathId[];
  /**
   * SPEC.md does not show what each operation does; these names say they act (submit, start, re-run, issue an
   * upload URL). A profile with `side_effects: deny` keeps harness from calling them.
   */
  readonly sideEffects: boolean;
  readonly clause: Clause;
}

export const BUCKETS = {
  observability: {
    id: 'observability',
    limit: { count: 100, per: 'minute' },
    clause: '§8 table',
    note: 'one limit shared by all Observability API endpoints, not applied separately',
  },
  'rules-schedule': { id: 'rules-schedule', limit: { count: 120, per: 'minute' }, clause: '§8 table' },
  'transaction-event': { id: 'transaction-event', limit: { count: 500, per: 'second' }, clause: '§8 table' },
  'rules-rerun': { id: 'rules-rerun', limit: { count: 1, per: 'minute' }, clause: '§8 table' },
  'batch-upload-url': { id: 'batch-upload-url', limit: { count: 20, per: 'minute' }, clause: '§8 table' },
  'batch-status': { id: 'batch-status', limit: { count: 120, per: 'minute' }, clause: '§8 table' },
  'batch-validation-result': {
    id: 'batch-validation-result',
    limit: { count: 120, per: 'minute' },
    clause: '§8 table',
  },
  'rules-execute': { id: 'rules-execute', limit: { count: 30, per: 'minute' }, clause: '§8 table' },
  'rules-status': { id: 'rules-status', limit: { count: 120, per: 'minute' }, clause: '§8 table' },
} as const satisfies Record<string, Bucket>;

export type BucketId =
  | 'observability'
  | 'rules-schedule'
  | 'transaction-event'
  | 'rules-rerun'
  | 'batch-upload-url'
  | 'batch-status'
  | 'batch-validation-result'
  | 'rules-execute'
  | 'rules-status';

const endpoint = (
  key: EndpointKey,
  group: ApiGroup,
  bucket: BucketId,
  sideEffects: boolean,
  pathIds: readonly PathId[] = [],
): EndpointSpec => {
  const [method, path] = key.split(' ') as [HttpMethod, string];
  return { key, method, path, group, bucket, pathIds, sideEffects, clause: '§4 table' };
};

/** The eight API endpoints of SPEC.md §4 (the token endpoint lives in ./auth.ts). */
export const ENDPOINTS: readonly EndpointSpec[] = [
  endpoint('POST /event/transaction/v3', 'Transaction API', 'transaction-event', true),
  endpoint('POST /api/rules/rerun', 'Rule Rerun API', 'rules-rerun', true),
  endpoint('GET /api/rules/schedule', 'Rule Schedule API', 'rules-schedule', false),
  endpoint(
    'POST /api/transactions/batch/generate-upload-url',
    'Transaction Batch API',
    'batch-upload-url',
    true,
  ),
  endpoint('GET /api/transactions/batch/status/{batch_id}', 'Transaction Batch API', 'batch-status', false, [
    'batch_id',
  ]),
  endpoint(
    'GET /api/transactions/batch/validation-result/{batch_id}',
    'Transaction Batch API',
    'batch-validation-result',
    false,
    ['batch_id'],
  ),
  endpoint('POST /api/rules/execute', 'Rule Execution API', 'rules-execute', true),
  endpoint('GET /api/rules/status/{execution_id}', 'Rule Execution API', 'rules-status', false, [
    'execution_id',
  ]),
];

/**
 * SPEC.md §4: "Endpoints of the Observability API ...: paths and methods not shown." They come from the profile;
 * all of them draw from the one shared `observability` bucket.
 */
export const observabilityEndpoint = (key: EndpointKey): EndpointSpec => ({
  ...endpoint(key, 'Observability API', 'observability', false),
  clause: '§4 other endpoints',
});

export const bucketOf = (id: BucketId): Bucket => BUCKETS[id];

/** §4: "Requests to API endpoints carry the header `Content-Type: application/json`." */
export const API_CONTENT_TYPE = 'application/json';
