// Small HTTP building blocks shared by the token endpoint and the API routes.
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';

/** A response built once (or per request off the hot path) and written in one go. */
export interface PreparedResponse {
  readonly kind: 'response';
  readonly status: number;
  readonly headers: OutgoingHttpHeaders;
  readonly body: Buffer;
}

export const prepare = (
  status: number,
  payload: unknown,
  headers: OutgoingHttpHeaders = {},
): PreparedResponse => {
  const body = Buffer.from(JSON.stringify(payload));
  return {
    kind: 'response',
    status,
    body,
    headers: { 'content-type': 'application/json', 'content-length': body.length, ...headers },
  };
};

export const send = (res: ServerResponse, response: PreparedResponse): void => {
  res.writeHead(response.status, response.headers);
  res.end(response.body);
};

export const MAX_BODY_BYTES = 1024 * 1024;

const TOO_LARGE = prepare(413, {
  error: 'payload_too_large',
  error_description: `request bodies are limited to ${MAX_BODY_BYTES} bytes`,
});

/**
 * Reads the whole request body before `done` runs; `keep` says whether the bytes are wanted (API bodies are only
 * counted, since SPEC.md shows none of their fields). Past MAX_BODY_BYTES the rest is read and dropped and the
 * answer is 413 once the request has ended: answering early and closing would race the client's upload and could
 * reach it as a connection reset instead of a 413.
 */
export const readBody = (
  req: IncomingMessage,
  res: ServerResponse,
  keep: boolean,
  done: (body: Buffer) => void,
): void => {
  const chunks: Buffer[] = [];
  let size = 0;
  req.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) chunks.length = 0;
    else if (keep) chunks.push(chunk);
  });
  req.on('end', () => {
    if (size > MAX_BODY_BYTES) send(res, TOO_LARGE);
    else done(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks));
  });
};
