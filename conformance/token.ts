// SPEC.md §2 (access token response), §4 (token endpoint payload), §5 rules 1-2 and the 400 row of §7.
import { Ajv } from 'ajv';
import {
  type CheckContext,
  type CheckSpec,
  type Exchange,
  fail,
  type Grade,
  info,
  isSuccess,
  quoteJson,
  skip,
  TOKEN_ENDPOINT_KEY,
  warn,
} from '../src/runner/checks.ts';
import {
  AUTH_RULES,
  CONVENTIONS,
  cite,
  citeConvention,
  errorQuote,
  GRANT_TYPE,
  scopeFor,
  TOKEN_PAYLOAD_TABLE,
  TOKEN_REQUEST_CONTENT_TYPE,
  TOKEN_RESPONSE_TABLE,
  TOKEN_TYPE,
  tokenPayloadRow,
  tokenResponseRow,
  tokenResponseSchema,
} from '../src/spec/index.ts';

type Form = Record<string, string>;

const specForm = (ctx: CheckContext): Form => {
  const { client_id, client_secret } = ctx.client('primary');
  return { grant_type: GRANT_TYPE, client_id, client_secret, scope: scopeFor(ctx.target.profile.tenant) };
};

const postForm = (ctx: CheckContext, form: Form, label: string, asSpec = false): Promise<Exchange> =>
  ctx.tokenRequest(new URLSearchParams(form).toString(), TOKEN_REQUEST_CONTENT_TYPE, label, asSpec);

/** The SPEC.md request, sent once and shared by every check that examines a successful token response. */
const specResponse = (ctx: CheckContext): Promise<Exchange> =>
  ctx.once('token:spec-request', () =>
    postForm(ctx, specForm(ctx), 'token request as SPEC.md §5 rule 1 says', true),
  );

const okBody = async (ctx: CheckContext): Promise<Record<string, unknown>> => {
  const exchange = await specResponse(ctx);
  ctx.record(exchange);
  if (exchange.status !== 200)
    return skip(`no successful token response to examine (see AUTH-TOKEN-FORM): ${exchange.status}`);
  if (exchange.bodyCutAt !== undefined)
    return fail(`the token response body is over ${exchange.bodyCutAt} bytes: harness read no further`);
  let body: unknown;
  try {
    body = exchange.json();
  } catch (error) {
    // Only the server's body is judged: anything but a parse error is harness's own fault.
    if (!(error instanceof SyntaxError)) throw error;
  }
  if (typeof body === 'object' && body !== null && !Array.isArray(body))
    return body as Record<string, unknown>;
  return fail('the token response body is not a JSON object');
};

// The spec's own shape, minus the exact values: AUTH-TOKEN-TYPE and AUTH-TOKEN-EXPIRES-IN grade those themselves.
const validateShape = new Ajv({ strict: true }).compile({
  ...tokenResponseSchema,
  properties: {
    access_token: tokenResponseSchema.properties.access_token,
    expires_in: { type: 'integer' },
    token_type: { type: 'string' },
  },
});

interface Judgement {
  readonly grade: Extract<Grade, 'PASS' | 'WARN' | 'FAIL'>;
  readonly message: string;
}

/** A request that must be refused with 400 (§7 `stated`), or that SPEC.md leaves open (WARN unless it gets a token). */
const refusal = async (ctx: CheckContext, label: string, change: (form: Form) => Form, stated: boolean) => {
  const exchange = await postForm(ctx, change(specForm(ctx)), label);
  if (exchange.status === 400) return { grade: 'PASS', message: `${label}: 400` } as Judgement;
  // Issuing a token to a request SPEC.md's payload table forbids is a failure however the spec words errors.
  if (isSuccess(exchange.status)) {
    return { grade: 'FAIL', message: `${label}: ${exchange.status}, a token was issued` } as Judgement;
  }
  return { grade: stated ? 'FAIL' : 'WARN', message: `${label}: ${exchange.status}, not 400` } as Judgement;
};

/** The worst of several judgements decides; every message is kept. */
const settle = (...judgements: Judgement[]): string => {
  const message = judgements.map((j) => j.message).join('; ');
  if (judgements.some((j) => j.grade === 'FAIL')) return fail(message);
  if (judgements.some((j) => j.grade === 'WARN')) return warn(message);
  return message;
};

/** §2: "| token_type | string | Always `Bearer` |". */
const isBearer = async (ctx: CheckContext): Promise<string> => {
  const { token_type: type } = await okBody(ctx);
  if (type === TOKEN_TYPE) return 'token_type is Bearer';
  // SPEC.md, the contract being certified, says "Always `Bearer`", so another spelling fails even though RFC 6749
  // §5.1 lets clients compare it case-insensitively; a team that accepts it records that in a baseline.
  const rfcNote =
    typeof type === 'string' && type.toLowerCase() === TOKEN_TYPE.toLowerCase()
      ? ' (RFC 6749 §5.1 compares token_type case-insensitively; to accept this spelling, baseline AUTH-TOKEN-TYPE)'
      : '';
  return fail(`token_type is ${quoteJson(type)}, not "Bearer" as SPEC.md §2 says${rfcNote}`);
};

/** RFC 6749 §5.1: the token response carries Cache-Control: no-store and Pragma: no-cache. */
const forbidsCaching = async (ctx: CheckContext): Promise<string> => {
  const exchange = await specResponse(ctx);
  ctx.record(exchange);
  if (exchange.status !== 200) return skip(`no successful token response to examine (see AUTH-TOKEN-FORM)`);
  const cacheControl = exchange.headers['cache-control'] ?? '';
  const missing = [
    ...(/(^|,)\s*no-store\s*(,|$)/i.test(cacheControl) ? [] : ['Cache-Control: no-store']),
    ...(/no-cache/i.test(exchange.headers.pragma ?? '') ? [] : ['Pragma: no-cache']),
  ];
  // SPEC.md is silent; RFC 6749 requires it, since the body carries a credential.
  if (missing.length > 0) return warn(`the token response lacks ${missing.join(' and ')} (RFC 6749 §5.1)`);
  return 'Cache-Control: no-store and Pragma: no-cache present';
};

const base = { tags: ['token'], lane: 'token', required: true, plan: () => [] } as const;
const tokenPlan = (id: string, requests: number) => () => [
  { key: id, endpoint: TOKEN_ENDPOINT_KEY, requests, margin: 0 },
];

/** §7: "| 400 Bad Request | On the token request: wrong client_id, client_secret or scope format |". */
const badRequest = (id: string, title: string, label: string, change: (form: Form) => Form): CheckSpec => ({
  ...base,
  id,
  failsWith: ['FAIL'],
  title,
  ...cite(errorQuote('badTokenRequest')),
  plan: tokenPlan(id, 1),
  run: async (ctx) => settle(await refusal(ctx, label, change, true)),
});

export const tokenChecks = (): CheckSpec[] => [
  {
    ...base,
    id: 'AUTH-TOKEN-FORM',
    failsWith: ['FAIL'],
    title: 'A form-encoded token request as SPEC.md describes gets 200',
    ...cite(AUTH_RULES.tokenRequest),
    plan: tokenPlan('AUTH-TOKEN-FORM', 1),
    run: async (ctx) => {
      const exchange = await specResponse(ctx);
      ctx.record(exchange);
      if (exchange.status !== 200) return fail(`the token request got ${exchange.status}, not 200`);
      return 'the token request got 200';
    },
  },
  {
    ...base,
    id: 'AUTH-TOKEN-SCHEMA',
    failsWith: ['FAIL'],
    title: 'The token response carries access_token (string), expires_in (integer) and token_type (string)',
    ...cite(TOKEN_RESPONSE_TABLE),
    run: async (ctx) => {
      const body = await okBody(ctx);
      if (!validateShape(body)) {
        return fail(
          `the token response does not match §2: ${validateShape.errors?.map((e) => `${e.instancePath || '/'} ${e.message}`).join('; ')}`,
        );
      }
      return 'access_token, expires_in and token_type present with the right types';
    },
  },
  {
    ...base,
    id: 'AUTH-TOKEN-TYPE',
    failsWith: ['FAIL'],
    title: 'token_type is `Bearer`',
    ...cite(tokenResponseRow('token_type')),
    run: isBearer,
  },
  {
    ...base,
    id: 'AUTH-TOKEN-EXPIRES-IN',
    failsWith: ['FAIL'],
    title: 'expires_in is the integer token lifetime, in seconds',
    ...cite(tokenResponseRow('expires_in')),
    run: async (ctx) => {
      const { expires_in: expiresIn } = await okBody(ctx);
      const expected = ctx.target.tokenLifetimeSeconds;
      if (expiresIn === expected) return `expires_in is ${expected}`;
      return fail(`expires_in is ${quoteJson(expiresIn)}, not the integer ${expected}`);
    },
  },
  {
    ...base,
    id: 'AUTH-TOKEN-NO-STORE',
    failsWith: ['WARN'],
    title: 'The token response forbids caching (Cache-Control: no-store, Pragma: no-cache)',
    clause: '§5 rule 2',
    ...citeConvention(CONVENTIONS.tokenNoStore),
    required: false,
    run: forbidsCaching,
  },
  badRequest('AUTH-TOKEN-BAD-CLIENT-ID', 'A wrong client_id gets 400', 'wrong client_id', (f) => ({
    ...f,
    client_id: `${f.client_id}-harness-unknown`,
  })),
  badRequest('AUTH-TOKEN-BAD-SECRET', 'A wrong client_secret gets 400', 'wrong client_secret', (f) => ({
    ...f,
    // Shorter than the values the redactor learns as secrets (redact.ts), so the reproduction can print it: as one
    // it would be hidden, and a command sending $CLIENT_SECRET in its place would get a token.
    client_secret: 'wrong',
  })),
  badRequest(
    'AUTH-TOKEN-BAD-SCOPE',
    'A scope not of the form tenant/<tenant-id> gets 400',
    'scope without the tenant/ prefix',
    (f) => ({ ...f, scope: f.scope!.replace(/^tenant\//, '') }),
  ),
  {
    ...base,
    id: 'AUTH-TOKEN-MISSING-FIELD',
    failsWith: ['FAIL', 'WARN'],
    title: 'A token request missing a required field gets 400',
    ...cite(TOKEN_PAYLOAD_TABLE),
    plan: tokenPlan('AUTH-TOKEN-MISSING-FIELD', 4),
    run: async (ctx) => {
      const judgements: Judgement[] = [];
      for (const field of ['grant_type', 'client_id', 'client_secret', 'scope']) {
        judgements.push(
          await refusal(ctx, `without ${field}`, ({ [field]: _omitted, ...rest }) => rest, false),
        );
      }
      return settle(...judgements);
    },
  },
  {
    ...base,
    id: 'AUTH-TOKEN-GRANT-TYPE',
    failsWith: ['FAIL', 'WARN'],
    title: 'A grant_type other than client_credentials gets 400',
    ...cite(tokenPayloadRow('grant_type')),
    plan: tokenPlan('AUTH-TOKEN-GRANT-TYPE', 1),
    run: async (ctx) =>
      settle(await refusal(ctx, 'grant_type=password', (f) => ({ ...f, grant_type: 'password' }), false)),
  },
  {
    ...base,
    id: 'AUTH-TOKEN-JSON-BODY',
    failsWith: [],
    title: 'What the token endpoint does with a JSON body instead of a form (recorded)',
    ...cite(AUTH_RULES.tokenRequest),
    required: false,
    plan: tokenPlan('AUTH-TOKEN-JSON-BODY', 1),
    run: async (ctx) => {
      const exchange = await ctx.tokenRequest(
        JSON.stringify(specForm(ctx)),
        'application/json',
        'token request as JSON',
      );
      return info(`a JSON token request got ${exchange.status}`);
    },
  },
];
