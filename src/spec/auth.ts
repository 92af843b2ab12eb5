// SPEC.md §2 (access token response), §4 (token endpoint payload), §5 (authentication rules), §7 (errors).
import type { Clause } from './endpoints.ts';

export const TOKEN_REQUEST_CONTENT_TYPE = 'application/x-www-form-urlencoded';
export const GRANT_TYPE = 'client_credentials';
export const TOKEN_TYPE = 'Bearer';
/** §2, §5 rule 4, §8 rule 3: the value is 3600 (1 hour). */
export const TOKEN_LIFETIME_SECONDS = 3600;

export type TokenRequestField = 'grant_type' | 'client_id' | 'client_secret' | 'scope';

export interface FieldSpec {
  readonly name: TokenRequestField;
  readonly required: true;
  readonly format: string;
  readonly clause: Clause;
}

export const TOKEN_REQUEST_FIELDS: readonly FieldSpec[] = [
  {
    name: 'grant_type',
    required: true,
    format: 'the constant `client_credentials`',
    clause: '§4 token payload',
  },
  {
    name: 'client_id',
    required: true,
    format: 'string, the application identifier',
    clause: '§4 token payload',
  },
  {
    name: 'client_secret',
    required: true,
    format: 'string, the application secret',
    clause: '§4 token payload',
  },
  {
    name: 'scope',
    required: true,
    format: 'string of the form `tenant/<tenant-id>`',
    clause: '§4 token payload',
  },
];

/**
 * §4/§5: scope is `tenant/<tenant-id>`. SPEC.md does not show the id's alphabet; harness accepts any non-empty id
 * without '/', whitespace or control characters, the narrowest reading that every realistic id satisfies.
 */
export const SCOPE_PATTERN = /^tenant\/[^/\s\p{Cc}]+$/u;
export const scopeFor = (tenant: string): string => `tenant/${tenant}`;
export const isValidScope = (scope: string): boolean => SCOPE_PATTERN.test(scope);

export interface AuthRule {
  readonly clause: Clause;
  readonly text: string;
}

/** §5 "Rules", quoted so checks and reports can cite them word for word. */
export const AUTH_RULES = {
  tokenRequest: {
    clause: '§5 rule 1',
    text: 'The client obtains a token with POST to the token endpoint, sending grant_type, client_id, client_secret and scope as a form-encoded body.',
  },
  tokenResponse: {
    clause: '§5 rule 2',
    text: 'On success the response contains access_token, expires_in (3600) and token_type (`Bearer`).',
  },
  bearerHeader: {
    clause: '§5 rule 3',
    text: 'Every API request carries the header `Authorization: Bearer <ACCESS_TOKEN>`, where the value is the full access_token.',
  },
  expiry: {
    clause: '§5 rule 4',
    text: 'A token is valid for 3600 seconds. After that, API calls return 401; the client requests a new token with the same request.',
  },
  reuse: {
    clause: '§5 rule 5',
    text: 'Credentials are sent only to the token endpoint, not with each API request; a token can be reused until it expires.',
  },
  permission: {
    clause: '§5 rule 6',
    text: 'A valid token whose client credentials lack permission for the resource gets 403.',
  },
} as const satisfies Record<string, AuthRule>;

export interface ErrorStatus {
  readonly status: 400 | 401 | 403 | 429;
  readonly reason: string;
  readonly condition: string;
  readonly clause: Clause;
}

/** §7 table. */
export const ERROR_STATUSES = {
  badTokenRequest: {
    status: 400,
    reason: 'Bad Request',
    condition: 'On the token request: wrong client_id, client_secret or scope format',
    clause: '§7',
  },
  expiredToken: {
    status: 401,
    reason: 'Unauthorized',
    condition: 'Access token expired (request a new one)',
    clause: '§7',
  },
  forbidden: {
    status: 403,
    reason: 'Forbidden',
    condition: 'Token valid, but the client credentials lack permission for the resource',
    clause: '§7',
  },
  rateLimited: {
    status: 429,
    reason: 'Too Many Requests',
    condition:
      'Rate limit for the tenant and endpoint exceeded; response carries a `Retry-After` header giving the seconds to wait before retrying',
    clause: '§7',
  },
} as const satisfies Record<string, ErrorStatus>;

/** §8 rule 2: "A request over the limit receives HTTP 429 with the `Retry-After` header (integer seconds)." */
export const RETRY_AFTER_PATTERN = /^\d+$/;
