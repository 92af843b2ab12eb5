import { existsSync, readFileSync, statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { proxyFromEnv } from '../../src/client/network.ts';
import { k6Network } from '../../src/k6-driver/k6-network.ts';

const CA = Buffer.from('-----BEGIN CERTIFICATE-----\nCA\n-----END CERTIFICATE-----\n');
const CERT = Buffer.from('-----BEGIN CERTIFICATE-----\nCLIENT\n-----END CERTIFICATE-----\n');
const KEY = Buffer.from('-----BEGIN PRIVATE KEY-----\nKEY\n-----END PRIVATE KEY-----\n');

describe('proxyFromEnv', () => {
  it('reads the lower-case spelling first and treats empty as unset', () => {
    expect(
      proxyFromEnv({
        https_proxy: '',
        HTTPS_PROXY: 'http://127.0.0.1:3128',
        http_proxy: 'http://127.0.0.1:1',
      }),
    ).toEqual({ httpsProxy: 'http://127.0.0.1:3128', httpProxy: 'http://127.0.0.1:1' });
    expect(proxyFromEnv({ NO_PROXY: 'localhost', no_proxy: '127.0.0.1' })).toEqual({ noProxy: '127.0.0.1' });
    expect(proxyFromEnv({})).toEqual({});
  });
});

describe('k6Network', () => {
  it("passes harness's proxy settings to k6 in both spellings, and blanks them when there are none", () => {
    const proxied = k6Network({
      tls: {},
      proxy: { httpsProxy: 'http://127.0.0.1:3128', noProxy: 'internal.test' },
    });
    expect(proxied.env).toMatchObject({
      HTTPS_PROXY: 'http://127.0.0.1:3128',
      https_proxy: 'http://127.0.0.1:3128',
      NO_PROXY: 'internal.test',
      HTTP_PROXY: '',
    });
    expect(proxied.args).toEqual([]);
    proxied.dispose();
    expect(k6Network({ tls: {}, proxy: {} }).env.HTTPS_PROXY).toBe('');
  });

  it('gives k6 the CA beside the usual roots, and the client certificate and --insecure in a private config', () => {
    const k6 = k6Network({ tls: { ca: CA, cert: CERT, key: KEY, insecure: true }, proxy: {} });
    const bundle = readFileSync(k6.env.SSL_CERT_FILE!, 'utf8');
    expect(bundle).toContain(CA.toString());
    expect(bundle.match(/BEGIN CERTIFICATE/g)!.length).toBeGreaterThan(50);
    expect(k6.args[0]).toBe('--config');
    const config = k6.args[1]!;
    expect(statSync(config).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(config, 'utf8'))).toEqual({
      tlsAuth: [{ cert: CERT.toString(), key: KEY.toString() }],
      insecureSkipTLSVerify: true,
    });
    k6.dispose();
    expect(existsSync(config)).toBe(false);
  });
});
