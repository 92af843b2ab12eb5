// What checks quote: SPEC.md's own sentences and table rows, as SPEC.md prints them, and the few RFC sentences
// harness applies where SPEC.md is silent. A certifier reads a check's quote as the contract, so no check writes
// its own: test/conformance/quotes.test.ts finds every check's quote in SPEC.md, in the section its clause cites.
import { ERROR_STATUSES, TOKEN_REQUEST_FIELDS } from './auth.ts';
import { BUCKETS, type BucketId, type Clause, ENDPOINTS, type EndpointSpec } from './endpoints.ts';

export interface SpecQuote {
  readonly clause: Clause;
  readonly text: string;
}

/** A table row exactly as SPEC.md prints it. */
const row = (...cells: readonly string[]): string => `| ${cells.join(' | ')} |`;
const table = (header: readonly string[], rows: readonly (readonly string[])[]): string =>
  [row(...header), `|${header.map(() => '---').join('|')}|`, ...rows.map((r) => row(...r))].join('\n');

/** A check's `clause` and `quote`, from one place so the two cannot disagree. */
export const cite = ({ clause, text }: SpecQuote): { clause: Clause; quote: string } => ({
  clause,
  quote: text,
});

/** §2 "Access token response". */
const TOKEN_RESPONSE_FIELDS = {
  access_token: ['access_token', 'string', 'Bearer token to send with every API request'],
  expires_in: ['expires_in', 'integer', 'Validity in seconds; the value is 3600 (1 hour)'],
  token_type: ['token_type', 'string', 'Always `Bearer`'],
} as const;

export const TOKEN_RESPONSE_TABLE: SpecQuote = {
  clause: '§2',
  text: table(['Field', 'Type', 'Meaning'], Object.values(TOKEN_RESPONSE_FIELDS)),
};

export const tokenResponseRow = (field: keyof typeof TOKEN_RESPONSE_FIELDS): SpecQuote => ({
  clause: '§2',
  text: row(...TOKEN_RESPONSE_FIELDS[field]),
});

/** §4 "Token endpoint payload", whole: every field is required. */
export const TOKEN_PAYLOAD_TABLE: SpecQuote = {
  clause: '§4 token payload',
  text: table(
    ['Field', 'Required', 'Format'],
    TOKEN_REQUEST_FIELDS.map((f) => [f.name, 'yes', f.format]),
  ),
};

export const tokenPayloadRow = (name: (typeof TOKEN_REQUEST_FIELDS)[number]['name']): SpecQuote => {
  const field = TOKEN_REQUEST_FIELDS.find((f) => f.name === name)!;
  return { clause: field.clause, text: row(field.name, 'yes', field.format) };
};

/** SPEC.md §4 shows no Observability path: an Observability endpoint's existence rests on this sentence. */
const OBSERVABILITY_PATHS: SpecQuote = {
  clause: '§4 other endpoints',
  text: 'Endpoints of the Observability API (transaction summary, batch status, rule execution, data export and others): paths and methods not shown.',
};

/** The §4 table's row of an endpoint, or for an Observability endpoint (its path comes from the profile) §4's sentence. */
export const endpointQuote = (endpoint: EndpointSpec): SpecQuote =>
  endpoint.group === 'Observability API'
    ? OBSERVABILITY_PATHS
    : { clause: '§4 table', text: row(endpoint.method, endpoint.path, endpoint.group) };

const OBSERVABILITY_LIMIT_ROW =
  'All Observability API endpoints (one limit shared by all of them, not applied separately)';

/** The §8 table's row of a bucket, with SPEC.md's limit (not a profile's override). */
export const limitQuote = (bucket: BucketId): SpecQuote => {
  const { count, per } = BUCKETS[bucket].limit;
  const endpoint =
    bucket === 'observability' ? OBSERVABILITY_LIMIT_ROW : ENDPOINTS.find((e) => e.bucket === bucket)!.key;
  return {
    clause: '§8 table',
    text: row(endpoint, `${count} ${count === 1 ? 'request' : 'requests'} / ${per}`),
  };
};

/** A row of the §7 table. */
export const errorQuote = (error: keyof typeof ERROR_STATUSES): SpecQuote => {
  const { status, reason, condition, clause } = ERROR_STATUSES[error];
  return { clause, text: row(`${status} ${reason}`, condition) };
};

/** §8 rules 1 and 2. */
export const LIMIT_RULES = {
  perTenant: {
    clause: '§8 rule 1',
    text: 'Limits are per tenant and per endpoint. Several integrations or applications of the same tenant share the same limit.',
  },
  overLimit: {
    clause: '§8 rule 2',
    text: 'A request over the limit receives HTTP 429 with the `Retry-After` header (integer seconds).',
  },
} as const satisfies Record<string, SpecQuote>;

/** Where SPEC.md is silent and a check follows an RFC instead: it grades WARN at most and cannot be required. */
export interface Convention {
  readonly rfc: `RFC ${number}`;
  readonly section: `§${string}`;
}

export interface ConventionQuote extends Convention {
  readonly text: string;
}

/** A convention check's `convention` and `quote`. */
export const citeConvention = ({ rfc, section, text }: ConventionQuote) => ({
  convention: { rfc, section },
  quote: text,
});

/** The RFC sentences convention checks quote, word for word. */
export const CONVENTIONS = {
  tokenNoStore: {
    rfc: 'RFC 6749',
    section: '§5.1',
    text: 'The authorization server MUST include the HTTP "Cache-Control" response header field [RFC2616] with a value of "no-store" in any response containing tokens, credentials, or other sensitive information, as well as the "Pragma" response header field [RFC2616] with a value of "no-cache".',
  },
} as const satisfies Record<string, ConventionQuote>;
