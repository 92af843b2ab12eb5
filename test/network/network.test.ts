// harness on an enterprise network, all on loopback: the reference server over HTTPS with a private CA, with and
// without mutual TLS, reached directly and through a forward proxy; conformance and load as a user runs them.
import { copyFileSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { type RunningReferenceServer, startReferenceServer } from '../../src/reference/index.ts';
import { type Finished, harness, profileFor, SIDE_BY_SIDE, tmp } from '../cli/run.ts';
import { makePki, type Pki } from './pki.ts';
import { startProxy } from './proxy.ts';

/** Token checks, every endpoint, and one bucket's probe: a burst of 120 through the proxy and the TLS in it. */
const SOME_CHECKS = ['--only', 'token,endpoints,rules-schedule'];
/** Each test runs harness as a user would, a few seconds each; a busy 2-core machine gets room. */
const SLOW = { timeout: 120_000 };
const NO_PROXY_ENV = {
  HTTP_PROXY: '',
  HTTPS_PROXY: '',
  NO_PROXY: '',
  http_proxy: '',
  https_proxy: '',
  no_proxy: '',
};

let pki: Pki;
const running: { close(): Promise<void> }[] = [];

beforeAll(() => {
  pki = makePki(tmp());
});
afterAll(async () => {
  await Promise.all(running.map((r) => r.close()));
});

// A server (and proxy) of its own for each test: the tests run side by side, and a run spends the tenant's bucket.
const started = async <T extends { close(): Promise<void> }>(start: Promise<T>): Promise<T> => {
  const service = await start;
  running.push(service);
  return service;
};
const pem = (file: string) => readFileSync(file);
const httpsServer = () =>
  started(
    startReferenceServer({ minuteMs: 2000, tls: { cert: pem(pki.serverCert), key: pem(pki.serverKey) } }),
  );
const mutualServer = () =>
  started(
    startReferenceServer({
      minuteMs: 2000,
      tls: { cert: pem(pki.serverCert), key: pem(pki.serverKey), clientCa: pem(pki.ca) },
    }),
  );

const conformance = async (
  server: RunningReferenceServer,
  flags: string[],
  env: NodeJS.ProcessEnv = {},
  origin = server.baseUrl,
): Promise<Finished & { report: () => { certifiable: boolean; notCertifiable: string[] } }> => {
  const { file, env: secrets } = profileFor(server);
  writeFileSync(file, readFileSync(file, 'utf8').replaceAll(server.baseUrl, origin));
  const reports = tmp();
  const run = await harness(
    ['conformance', '--profile', file, ...SOME_CHECKS, '--report-dir', reports, ...flags],
    { ...NO_PROXY_ENV, ...secrets, ...env },
  );
  const report = () =>
    JSON.parse(readFileSync(join(realpathSync(join(reports, 'latest')), 'conformance.json'), 'utf8'));
  return { ...run, report };
};

const passed = (run: Finished) => {
  expect(run.status, run.stdout + run.stderr).toBe(0);
  expect(run.stdout).toMatch(/^summary: \d+ checks in [\d.]+ s: 0 FAIL, 0 INCONCLUSIVE, 0 WARN, \d+ SKIP/m);
};

describe.concurrent('HTTPS with a private CA', SIDE_BY_SIDE, () => {
  it('refuses a certificate it cannot verify before any check, naming the TLS failure', async () => {
    const run = await conformance(await httpsServer(), []);
    expect(run.status).toBe(3);
    expect(run.stderr).toMatch(
      /^harness: target unreachable, no check run: https:\/\/127\.0\.0\.1:\d+\/: TLS failure/m,
    );
  });

  it('with --ca, fetches tokens and runs the checks', async () => {
    passed(await conformance(await httpsServer(), ['--ca', pki.ca]));
  });

  it('with another CA, still refuses', async () => {
    expect((await conformance(await httpsServer(), ['--ca', pki.otherCa])).status).toBe(3);
  });

  it('with --insecure, runs with a loud warning, and the run is not certifiable', async () => {
    const run = await conformance(await httpsServer(), ['--insecure']);
    passed(run);
    expect(run.stderr).toMatch(/^harness: WARNING: TLS certificate verification is OFF/m);
    expect(run.report().notCertifiable).toContain(
      'TLS certificates were not verified (--insecure / tls.insecure)',
    );
  });
});

describe.concurrent('mutual TLS', SIDE_BY_SIDE, () => {
  it('without a client certificate, the handshake fails and nothing runs', async () => {
    const run = await conformance(await mutualServer(), ['--ca', pki.ca]);
    expect(run.status).toBe(3);
    expect(run.stderr).toMatch(/target unreachable, no check run/);
  });

  it('with --cert and --key, fetches tokens and runs the checks', async () => {
    passed(
      await conformance(await mutualServer(), [
        '--ca',
        pki.ca,
        '--cert',
        pki.clientCert,
        '--key',
        pki.clientKey,
      ]),
    );
  });

  it('takes the same from the profile, files relative to it', async () => {
    const dir = tmp();
    for (const [from, to] of [
      [pki.ca, 'ca.pem'],
      [pki.clientCert, 'client.pem'],
      [pki.clientKey, 'client.key'],
    ] as const)
      copyFileSync(from, join(dir, to));
    const { file, env } = profileFor(await mutualServer());
    const profile = join(dir, 'profile.yaml');
    writeFileSync(
      profile,
      `${readFileSync(file, 'utf8')}${stringify({ tls: { ca: 'ca.pem', cert: 'client.pem', key: 'client.key' }, timeout_ms: 10000 })}`,
    );
    const run = await harness(['conformance', '--profile', profile, ...SOME_CHECKS, '--report-dir', tmp()], {
      ...NO_PROXY_ENV,
      ...env,
    });
    passed(run);
  });

  it('names a missing key, a missing file and a file that is no certificate, with exit 2', async () => {
    const { file, env } = profileFor(await mutualServer());
    const missingKey = await harness(['conformance', '--profile', file, '--cert', pki.clientCert], env);
    expect(missingKey.status).toBe(2);
    expect(missingKey.stderr.trim()).toBe(
      'harness: --cert / tls.cert: a client certificate needs its key (--key or tls.key)',
    );
    const missingFile = await harness(['conformance', '--profile', file, '--ca', '/nonexistent/ca.pem'], env);
    expect(missingFile.stderr.trim()).toBe(
      'harness: --ca / tls.ca /nonexistent/ca.pem: cannot read (ENOENT)',
    );
    const notPem = await harness(['conformance', '--profile', file, '--ca', file], env);
    expect(notPem.status).toBe(2);
    expect(notPem.stderr.trim()).toBe(`harness: --ca / tls.ca ${file}: not a PEM certificate`);
  });
});

describe.concurrent('through a forward proxy', SIDE_BY_SIDE, () => {
  it('tunnels every request through HTTPS_PROXY, mutual TLS inside the tunnel', async () => {
    const [proxy, mutual] = await Promise.all([started(startProxy()), mutualServer()]);
    // The profile names a port that leads to the server only through the proxy.
    const hidden = await proxy.behind(mutual.baseUrl);
    const mtls = ['--ca', pki.ca, '--cert', pki.clientCert, '--key', pki.clientKey];
    const run = await conformance(mutual, mtls, { HTTPS_PROXY: proxy.url }, hidden);
    passed(run);
    const tunnels = proxy.tunnels;
    expect(tunnels.length).toBeGreaterThan(0);
    expect(new Set(tunnels)).toEqual(new Set([new URL(hidden).host]));
    expect(proxy.direct()).toBe(0);
    // And without the proxy, that port leads nowhere: the run above could only have gone through it.
    expect((await conformance(mutual, mtls, {}, hidden)).status).toBe(3);
    expect(proxy.direct()).toBeGreaterThan(0);
  });

  it('goes direct for a host in NO_PROXY', async () => {
    const proxy = await started(startProxy());
    passed(
      await conformance(await httpsServer(), ['--ca', pki.ca], {
        HTTPS_PROXY: proxy.url,
        NO_PROXY: 'localhost,127.0.0.1',
      }),
    );
    expect(proxy.tunnels).toEqual([]);
  });

  it('reports a proxy that refuses the tunnel as an unreachable target', async () => {
    const run = await conformance(await httpsServer(), ['--ca', pki.ca], {
      HTTPS_PROXY: 'http://127.0.0.1:9',
    });
    expect(run.status).toBe(3);
  });
});

describe('harness load over mutual TLS', SLOW, () => {
  const load = async (flags: string[]) => {
    const { file, env } = profileFor(await mutualServer());
    const reports = tmp();
    const args = [
      'load',
      '--profile',
      file,
      '--scenario',
      'schedule',
      '--duration',
      '2s',
      '--report-dir',
      reports,
    ];
    const run = await harness([...args, ...flags], { ...NO_PROXY_ENV, ...env });
    return { ...run, reports };
  };

  it('hands k6 the CA and the client certificate: every request is answered', async () => {
    const run = await load(['--ca', pki.ca, '--cert', pki.clientCert, '--key', pki.clientKey]);
    // Phases may still fail on a starved machine (dropped iterations); TLS trouble would show as refusals.
    expect([0, 1], run.stdout + run.stderr).toContain(run.status);
    const latest = realpathSync(join(run.reports, 'latest'));
    const summary = JSON.parse(readFileSync(join(latest, 'load-schedule-summary.json'), 'utf8')) as {
      phases: { plan: { name: string }; admitted: number; refused: number }[];
    };
    expect(summary.phases.map((p) => [p.plan.name, p.admitted > 0, p.refused])).toEqual([
      ['within_schedule', true, 0],
      ['over_schedule', true, 0],
      ['knee_schedule', true, 0],
    ]);
  });

  it('without the client certificate, exits 3 before k6 starts', async () => {
    const run = await load(['--ca', pki.ca]);
    expect(run.status).toBe(3);
    expect(run.stderr).toMatch(/^harness: target unreachable, no phase run: /m);
  });
});
