import { describe, expect, it } from 'vitest';
import { classifyError, DEFAULT_MAX_BODY_BYTES, HttpClient, TargetError } from '../../src/client/index.ts';
import { HUGE_BODY_BYTES, startHostile } from '../support/hostile.ts';
import { closeAfterEach, rejectedWith, sendJson, startServer, type TestServer } from './servers.ts';

const cleanup = closeAfterEach();

const server = async (handle: Parameters<typeof startServer>[0]): Promise<TestServer> => {
  const s = await startServer(handle);
  cleanup(() => s.close());
  return s;
};

const client = (options: ConstructorParameters<typeof HttpClient>[0] = {}): HttpClient => {
  const c = new HttpClient(options);
  cleanup(() => c.close());
  return c;
};

describe('HttpClient.send', () => {
  it('captures request and response as evidence and keeps the raw response for the caller', async () => {
    const s = await server((_req, res) => sendJson(res, 201, { id: 'b-1' }, { 'X-Trace': 'abc' }));
    const http = client();
    const ex = await http.send({
      method: 'POST',
      url: `${s.origin}/api/x?q=1`,
      headers: { 'Content-Type': 'application/json' },
      body: '{"a":1}',
      label: 'create',
    });
    expect(s.requests[0]).toMatchObject({ method: 'POST', url: '/api/x?q=1', body: '{"a":1}' });
    expect(ex.status).toBe(201);
    expect(ex.headers['x-trace']).toBe('abc');
    expect(ex.json()).toEqual({ id: 'b-1' });
    const { evidence } = ex;
    expect(evidence).toMatchObject({
      label: 'create',
      request: {
        method: 'POST',
        url: `${s.origin}/api/x?q=1`,
        headers: { 'content-type': 'application/json' },
      },
      response: { status: 201, body: '{"id":"b-1"}' },
    });
    expect(evidence.request.body).toBe('{"a":1}');
    expect(evidence.response?.headers['x-trace']).toBe('abc');
    expect(new Date(evidence.startedAt).toISOString()).toBe(evidence.startedAt);
    expect(evidence.durationMs).toBeGreaterThanOrEqual(0);
    expect(evidence.error).toBeUndefined();
    expect(JSON.stringify(ex)).toBe(JSON.stringify(evidence));
  });

  it('resolves for any HTTP status, errors included', async () => {
    const s = await server((_req, res) => {
      res.writeHead(503);
      res.end();
    });
    const ex = await client().send({ method: 'GET', url: `${s.origin}/` });
    expect(ex.status).toBe(503);
    expect(ex.evidence.response).toEqual({ status: 503, headers: expect.any(Object) });
    expect(ex.text()).toBe('');
  });

  it('truncates evidence bodies with a marker but keeps the full body for the caller', async () => {
    const big = 'x'.repeat(10_000);
    const s = await server((_req, res) => res.end(big));
    const ex = await client().send({ method: 'GET', url: `${s.origin}/` });
    expect(ex.text()).toBe(big);
    expect(ex.evidence.response?.body).toBe(`${'x'.repeat(4096)}…[truncated: 5904 of 10000 chars]`);
    const small = await client({ maxEvidenceBody: 10 }).send({ method: 'GET', url: `${s.origin}/` });
    expect(small.evidence.response?.body).toMatch(/^x{10}…\[truncated: 9990 of 10000 chars\]$/);
  });

  it('reads a body over the cap only up to it, says so in the evidence, and refuses to parse it', async () => {
    const s = await server((_req, res) => res.end('y'.repeat(5000)));
    const ex = await client({ maxBodyBytes: 1000 }).send({ method: 'GET', url: `${s.origin}/` });
    expect(ex.status).toBe(200);
    expect(ex.bodyCutAt).toBe(1000);
    expect(ex.text()).toBe('y'.repeat(1000));
    expect(ex.evidence.response?.body).toBe(`${'y'.repeat(1000)} (body cut at 1000 bytes)`);
    expect(() => ex.json()).toThrow('body cut at 1000 bytes');
    const whole = await client({ maxBodyBytes: 5000 }).send({ method: 'GET', url: `${s.origin}/` });
    expect(whole.bodyCutAt).toBeUndefined();
  });

  it.each(['huge', 'endless'] as const)(
    'ends a %s body at the default cap at once, long before the timeout',
    async (mode) => {
      const hostile = await startHostile(mode);
      cleanup(() => hostile.close());
      const started = performance.now();
      const ex = await client({ requestTimeoutMs: 30_000 }).send({ method: 'POST', url: hostile.authUrl });
      expect(performance.now() - started).toBeLessThan(5_000);
      expect(ex.bodyCutAt).toBe(DEFAULT_MAX_BODY_BYTES);
      expect(ex.text()).toHaveLength(DEFAULT_MAX_BODY_BYTES);
      // Socket buffers hold a few MB at most; the server never got to send the rest.
      expect(hostile.bodyBytesSent()).toBeLessThan(HUGE_BODY_BYTES / 10);
    },
  );

  it('completes a burst of 600 concurrent requests', async () => {
    const s = await server((req, res) => sendJson(res, 200, { n: req.url }));
    const http = client();
    const results = await Promise.all(
      Array.from({ length: 600 }, (_, i) => http.send({ method: 'GET', url: `${s.origin}/r/${i}` })),
    );
    expect(results.map((r) => r.status)).toEqual(Array(600).fill(200));
    expect(results.map((r) => (r.json() as { n: string }).n)).toEqual(results.map((_, i) => `/r/${i}`));
  });
});

describe('HttpClient evidence against a server echoing what it was sent', () => {
  it('holds no registered secret, whether echoed in the body, a header value or a header name', async () => {
    const secret = 'echoed-secret-0123456789';
    const token = 'echoed-token-'.padEnd(8 * 1024, 'x');
    const s = await server((req, res) =>
      sendJson(
        res,
        200,
        { access_token: token, echo: req.headers['x-api-key'] },
        { [`x-${secret}`]: secret, 'x-token': token },
      ),
    );
    const http = client();
    http.redactor.addSecret(secret);
    const ex = await http.send({ method: 'GET', url: `${s.origin}/x`, headers: { 'x-api-key': secret } });
    const evidence = JSON.stringify(ex.evidence);
    expect(ex.headers[`x-${secret}`]).toBe(secret);
    expect(evidence).not.toContain(secret);
    expect(evidence).not.toContain(token.slice(0, 64));
    expect(ex.evidence.response?.headers['x-[REDACTED]']).toBe('[REDACTED]');
  });
});

describe('HttpClient evidence of a body cut short', () => {
  it('leaves out the last word, which may be the first part of a secret no registered value matches', async () => {
    const token = 'cut-token-'.padEnd(3000, 'y');
    const s = await server((_req, res) => sendJson(res, 200, { echo: `Bearer ${token}` }));
    const http = client({ maxBodyBytes: 2048, maxEvidenceBody: 4096 });
    http.redactor.addToken(token);
    const ex = await http.send({ method: 'GET', url: `${s.origin}/x` });
    expect(ex.bodyCutAt).toBe(2048);
    expect(ex.evidence.response?.body).toBe('{"echo":"Bearer  (body cut at 2048 bytes)');
  });
});

describe('TargetError', () => {
  it('is "unreachable" when the connection is refused, naming the URL', async () => {
    const s = await startServer((_req, res) => res.end());
    await s.close();
    const url = `${s.origin}/api/rules/schedule`;
    const err = await rejectedWith(TargetError, client().send({ method: 'GET', url }));
    expect(err.kind).toBe('unreachable');
    expect(err.message).toContain(url);
    expect(err.message).toContain('ECONNREFUSED');
    expect(err.cause).toBeDefined();
    expect(err.evidence).toMatchObject({ request: { method: 'GET', url }, error: { kind: 'unreachable' } });
    expect(err.evidence.response).toBeUndefined();
  });

  it('is "timeout" when the whole request takes longer than requestTimeoutMs', async () => {
    const s = await server((_req, res) => {
      res.writeHead(200);
      res.write('partial');
    });
    const err = await rejectedWith(
      TargetError,
      client({ requestTimeoutMs: 100 }).send({ method: 'GET', url: `${s.origin}/slow` }),
    );
    expect(err.kind).toBe('timeout');
    expect(err.evidence.error?.message).toContain(`${s.origin}/slow`);
  });

  it('is "reset" when the server drops the connection', async () => {
    const dropping = await server((_req, res) => res.socket?.destroy());
    const err = await rejectedWith(TargetError, client().send({ method: 'GET', url: `${dropping.origin}/` }));
    expect(err.kind).toBe('reset');
  });

  it('classifies nested, aggregated and TLS errors by code', () => {
    const coded = (code: string) => Object.assign(new Error(code), { code });
    expect(classifyError(new AggregateError([coded('ECONNREFUSED'), coded('ECONNREFUSED')]))).toBe(
      'unreachable',
    );
    expect(classifyError(new Error('wrapped', { cause: coded('ECONNRESET') }))).toBe('reset');
    expect(classifyError(coded('UND_ERR_HEADERS_TIMEOUT'))).toBe('timeout');
    expect(classifyError(coded('UND_ERR_CONNECT_TIMEOUT'))).toBe('timeout');
    expect(classifyError(coded('DEPTH_ZERO_SELF_SIGNED_CERT'))).toBe('tls');
    expect(classifyError(coded('ERR_TLS_CERT_ALTNAME_INVALID'))).toBe('tls');
    expect(classifyError(new Error('odd'))).toBe('other');
    expect(classifyError('not an error')).toBe('other');
  });
});
