// The token endpoint: SPEC.md §4 token payload, §5 rules 1-2, §7 first row; errors as RFC 6749 §5.2.
import {
  GRANT_TYPE,
  isValidScope,
  scopeFor,
  TOKEN_REQUEST_CONTENT_TYPE,
  TOKEN_REQUEST_FIELDS,
  TOKEN_TYPE,
  type TokenRequestField,
} from '../spec/index.ts';
import type { Behaviour } from './behaviour.ts';
import { type PreparedResponse, prepare } from './http.ts';
import type { JwtTokens } from './jwt.ts';
import { authenticateClient, type RegisteredClient, type TokenStore } from './tokens.ts';

export interface TokenEndpointSettings {
  readonly clients: ReadonlyMap<string, RegisteredClient>;
  readonly store: TokenStore;
  readonly lifetimeSeconds: number;
  readonly behaviour: Behaviour;
  /** Hand out JWTs naming the store's keys; opaque tokens (the keys themselves) without. */
  readonly jwt: JwtTokens | undefined;
}

type Fields = Record<TokenRequestField, string>;

export type TokenEndpoint = (
  contentType: string | undefined,
  body: Buffer,
  now: number,
) => PreparedResponse | Promise<PreparedResponse>;

const mediaType = (contentType: string | undefined): string =>
  (contentType ?? '').split(';', 1)[0]!.trim().toLowerCase();

/**
 * RFC 6749 §3.2: no parameter twice; §3.1: a parameter without a value counts as omitted. A field a fault lets the
 * client omit is left empty.
 */
const formFields = (body: Buffer, mayOmit?: TokenRequestField): Fields | string => {
  const params = new URLSearchParams(body.toString('utf8'));
  const fields = {} as Fields;
  for (const { name } of TOKEN_REQUEST_FIELDS) {
    const values = params.getAll(name);
    if (values.length > 1) return `${name} is given more than once`;
    if (!values[0] && name !== mayOmit) return `${name} is missing`;
    fields[name] = values[0] ?? '';
  }
  return fields;
};

/** Only under the token-json-only fault. */
const jsonFields = (body: Buffer): Fields | string => {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    return 'the body is not JSON';
  }
  if (typeof parsed !== 'object' || parsed === null) return 'the body is not a JSON object';
  const record = parsed as Record<string, unknown>;
  const fields = {} as Fields;
  for (const { name } of TOKEN_REQUEST_FIELDS) {
    const value = record[name];
    if (typeof value !== 'string' || value === '') return `${name} is missing`;
    fields[name] = value;
  }
  return fields;
};

export const createTokenEndpoint = (settings: TokenEndpointSettings): TokenEndpoint => {
  const { clients, store, lifetimeSeconds, behaviour, jwt } = settings;
  const { cacheHeaders } = behaviour;
  const error = (error: string, description: string, status = 400): PreparedResponse =>
    prepare(status, { error, error_description: description }, cacheHeaders);
  const json = behaviour.tokenBody === 'json';
  const expectedType = json ? 'application/json' : TOKEN_REQUEST_CONTENT_TYPE;
  const parse = json ? jsonFields : (body: Buffer) => formFields(body, behaviour.mayOmit);
  const expiresIn = behaviour.expiresIn(lifetimeSeconds);
  const tokenType = behaviour.tokenType(TOKEN_TYPE);
  const granted = (token: string): PreparedResponse =>
    prepare(200, { access_token: token, expires_in: expiresIn, token_type: tokenType }, cacheHeaders);

  return (contentType, body, now) => {
    // Parameters of the media type (charset) are accepted; the body is read as UTF-8 either way.
    if (mediaType(contentType) !== expectedType) {
      return error('invalid_request', `the body must be ${expectedType}`);
    }
    const fields = parse(body);
    if (typeof fields === 'string') return error('invalid_request', fields);
    if (fields.grant_type !== GRANT_TYPE && behaviour.checksGrantType) {
      return error(
        'unsupported_grant_type',
        `grant_type must be ${GRANT_TYPE}`,
        behaviour.unsupportedGrantStatus,
      );
    }
    // Empty only where a fault lets it be omitted (missing-secret-401).
    if (fields.client_secret === '') return error('invalid_client', 'client authentication is required', 401);
    const client = authenticateClient(clients, fields.client_id, fields.client_secret);
    if (client === 'secret' || client === 'unknown') {
      const status = client === 'secret' ? behaviour.wrongSecretStatus : behaviour.unknownClientStatus;
      return error('invalid_client', 'client authentication failed', status);
    }
    if (fields.scope === '') fields.scope = scopeFor(client.client.tenant);
    const wellFormed = isValidScope(fields.scope);
    if (!wellFormed && behaviour.checksScopeForm) {
      return error('invalid_scope', 'scope must be tenant/<tenant-id>');
    }
    if (wellFormed && fields.scope !== scopeFor(client.client.tenant)) {
      return error('invalid_scope', "scope names a tenant other than the client's");
    }
    const key = store.issue(client, now);
    if (!jwt) return granted(key);
    const claims = { jti: key, clientId: client.client.client_id, scope: fields.scope, issuedAtMs: now };
    return jwt.sign({ ...claims, lifetimeSeconds }).then((token) => {
      store.handOut(key, token);
      return granted(token);
    });
  };
};
