// The token request's answer, read as sent and no further than MAX_TOKEN_BODY_BYTES. k6's http.post decodes a
// `Content-Encoding: br`/`gzip` answer whole before the script sees its size (1.7 KB of brotli took k6 to 6 GB), and
// no request param stops it. The k6 that `npm run setup` builds has k6/x/harness-token (load/checkpoint/token.go):
// it asks for `identity`, reads no encoded answer at all and an unencoded one to the cap. The CLI says it is there
// (HARNESS_TOKEN_READER); a stock k6 falls back to http.post asking for `identity`, which a hostile server may
// ignore, and such an answer still gives no token, but only after k6 has decoded it.
import http from 'k6/http';
import type { UnreadTokenAnswer } from '../../core/evidence.ts';
import { CAPPED_READER, TOKEN_MODULE, TOKEN_READER_ENV } from '../../core/token-reader.ts';
import { MAX_TOKEN_BODY_BYTES } from '../../core/wire.ts';

export interface TokenAnswer {
  /** 0: no answer (refused, reset, timed out). */
  readonly status: number;
  /** Empty when unread. */
  readonly body: string;
  readonly unread?: UnreadTokenAnswer;
  /** With status 0: why no answer came ("timed out", "no answer"); k6's own http.post logs its own line instead. */
  readonly failed?: string;
  /** The User-Agent sent, k6's own (`Grafana k6/2.2.0`). */
  readonly agent?: string;
}

interface CappedModule {
  post(
    url: string,
    form: Record<string, string>,
    timeoutMs: number,
    maxBytes: number,
  ): { status: number; body: string; unread: string; failed: string; agent: string };
}

declare const require: (name: string) => unknown;
const capped =
  __ENV[TOKEN_READER_ENV] === CAPPED_READER ? (require(TOKEN_MODULE) as CappedModule) : undefined;
/** Whether answers are read through the capped reader (else k6 decodes them whole first). */
export const cappedReader = capped !== undefined;

/** k6's default request timeout, where `--timeout` gives none. */
const K6_TIMEOUT_MS = 60_000;

const encoded = (value: string | undefined): boolean =>
  value !== undefined && value.trim() !== '' && value.trim().toLowerCase() !== 'identity';

/** POSTs `form` to `url` and reads the answer within MAX_TOKEN_BODY_BYTES. */
export const postTokenForm = (
  url: string,
  form: Record<string, string>,
  timeoutMs: number | undefined,
  tags: Record<string, string>,
): TokenAnswer => {
  if (capped !== undefined) {
    const { status, body, unread, failed, agent } = capped.post(
      url,
      form,
      timeoutMs ?? K6_TIMEOUT_MS,
      MAX_TOKEN_BODY_BYTES,
    );
    return {
      status,
      body,
      agent,
      ...(unread === 'encoded' || unread === 'oversized' ? { unread } : {}),
      ...(failed === '' ? {} : { failed }),
    };
  }
  const res = http.post(url, form, {
    headers: { 'Accept-Encoding': 'identity' },
    tags,
    responseType: 'text',
    ...(timeoutMs === undefined ? {} : { timeout: `${timeoutMs}ms` }),
  });
  const body = typeof res.body === 'string' ? res.body : '';
  const unread: UnreadTokenAnswer | undefined = encoded(res.headers['Content-Encoding'])
    ? 'encoded'
    : body.length > MAX_TOKEN_BODY_BYTES
      ? 'oversized'
      : undefined;
  const agent = res.request?.headers?.['User-Agent']?.[0];
  return {
    status: res.status,
    body: unread === undefined ? body : '',
    ...(unread === undefined ? {} : { unread }),
    ...(agent === undefined ? {} : { agent }),
  };
};
