import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubeClient, makeCertificates } from '../../scripts/rehearse-k8s/control-plane.ts';
import { listenOnLoopback } from '../support/listen.ts';

// A stand-in API server on loopback, with the certificates the rehearsal makes for its real one.
const dir = mkdtempSync(join(tmpdir(), 'harness-kube-client-'));
const certs = makeCertificates(dir);
const seen: { authorization?: string }[] = [];
let server: Server;
let address: string;

beforeAll(async () => {
  server = createServer(
    { cert: readFileSync(certs.serverCert), key: readFileSync(certs.serverKey) },
    (req, res) => {
      seen.push({ authorization: req.headers.authorization });
      if (req.url === '/readyz')
        res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end('ok');
      else res.writeHead(404, { 'content-type': 'application/json' }).end('{"kind":"Status","code":404}');
    },
  );
  address = `127.0.0.1:${(await listenOnLoopback(server)).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

describe('kubeClient', () => {
  it('trusts the rehearsal CA, sends the token, and takes a health answer as the text it is', async () => {
    const kube = kubeClient(certs, 'token-for-test', address);
    try {
      expect(await kube.call('GET', '/readyz')).toEqual({ status: 200, body: 'ok' });
      expect(await kube.call('GET', '/api/v1/nodes/missing')).toEqual({
        status: 404,
        body: { kind: 'Status', code: 404 },
      });
      expect(seen.at(-1)?.authorization).toBe('Bearer token-for-test');
    } finally {
      await kube.close();
    }
  });
});
