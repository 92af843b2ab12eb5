import { HarnessError } from '../errors.ts';
import type { Evidence, TargetErrorKind } from './evidence.ts';

/** The target could not be talked to at all; HTTP statuses, however wrong, are never a TargetError. */
export class TargetError extends HarnessError {
  override readonly name = 'TargetError';

  constructor(
    readonly kind: TargetErrorKind,
    message: string,
    /** The request as sent, with `error` set and no response. */
    readonly evidence: Evidence,
    options: { cause: unknown },
  ) {
    super('HARNESS_TARGET', message, options);
  }
}

/** The token endpoint did not answer 200 with a usable access_token. */
export class TokenError extends HarnessError {
  override readonly name = 'TokenError';

  constructor(
    message: string,
    /** The token request and its response. */
    readonly evidence: Evidence,
    /** The API call whose 401 prompted the refresh, when there was one. */
    readonly rejected?: Evidence,
    options?: { cause: unknown },
  ) {
    super('HARNESS_TOKEN', message, options);
  }
}

declare module '../errors.ts' {
  interface ErrorClasses {
    HARNESS_TARGET: TargetError;
    HARNESS_TOKEN: TokenError;
  }
}

const TLS = /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_)|SELF_SIGNED|HOSTNAME_MISMATCH/;

const CODES: readonly (readonly [TargetErrorKind, ReadonlySet<string>])[] = [
  [
    'timeout',
    new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'ETIMEDOUT']),
  ],
  [
    'unreachable',
    new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EHOSTDOWN']),
  ],
  ['reset', new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED', 'UND_ERR_SOCKET'])],
];

/** Node wraps per-address connect failures in an AggregateError, and undici sometimes nests the real one in cause. */
const codesOf = (err: unknown, depth = 0): string[] => {
  if (typeof err !== 'object' || err === null || depth > 3) return [];
  const { code, cause, errors } = err as { code?: unknown; cause?: unknown; errors?: unknown };
  const nested = [cause, ...(Array.isArray(errors) ? errors : [])].flatMap((e) => codesOf(e, depth + 1));
  return typeof code === 'string' ? [code, ...nested] : nested;
};

export const classifyError = (err: unknown): TargetErrorKind => {
  const codes = codesOf(err);
  // TLS first: a failed handshake can also surface a reset.
  if (codes.some((code) => TLS.test(code))) return 'tls';
  return CODES.find(([, set]) => codes.some((code) => set.has(code)))?.[0] ?? 'other';
};

const DESCRIPTIONS: Record<TargetErrorKind, string> = {
  unreachable: 'target unreachable',
  reset: 'connection reset',
  timeout: 'timed out',
  tls: 'TLS failure',
  other: 'request failed',
};

export const describeFailure = (kind: TargetErrorKind, method: string, url: string, err: unknown): string => {
  const message = err instanceof Error ? err.message : String(err);
  const detail = [...new Set([...codesOf(err), message])].filter((part) => part !== '').join(': ');
  return `${DESCRIPTIONS[kind]}: ${method} ${url} (${detail})`;
};
