// etcd and kube-apiserver on 127.0.0.1 with certificates made for this run, and a small client that speaks to the
// API in plain HTTPS with an admin token: no kubectl to build.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Agent, request } from 'undici';

export const API_SERVER = '127.0.0.1:6443';
/** Cluster IPs of the runners' Services; cluster.ts makes this range local inside the rehearsal's network. */
export const SERVICE_RANGE = '10.96.0.0/24';

export interface Certificates {
  readonly caCert: string;
  readonly serverCert: string;
  readonly serverKey: string;
}

const openssl = (dir: string, args: readonly string[]) =>
  execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });

const ecKey = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];

/** A CA valid for a day and one serving certificate it signed, for the API server and the stub kubelet alike. */
export const makeCertificates = (dir: string): Certificates => {
  openssl(dir, [
    'req',
    '-x509',
    ...ecKey,
    '-keyout',
    'ca.key',
    '-out',
    'ca.crt',
    '-days',
    '1',
    '-subj',
    '/CN=rehearse-ca',
  ]);
  openssl(dir, [
    'req',
    ...ecKey,
    '-keyout',
    'server.key',
    '-out',
    'server.csr',
    '-subj',
    '/CN=kube-apiserver',
  ]);
  writeFileSync(
    join(dir, 'san.ext'),
    'subjectAltName=IP:127.0.0.1,IP:10.96.0.1,DNS:localhost,DNS:kubernetes.default.svc\n',
  );
  openssl(dir, [
    'x509',
    '-req',
    '-in',
    'server.csr',
    '-CA',
    'ca.crt',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-out',
    'server.crt',
    '-days',
    '1',
    '-extfile',
    'san.ext',
  ]);
  openssl(dir, ['genpkey', '-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-256', '-out', 'sa.key']);
  openssl(dir, ['pkey', '-in', 'sa.key', '-pubout', '-out', 'sa.pub']);
  return {
    caCert: join(dir, 'ca.crt'),
    serverCert: join(dir, 'server.crt'),
    serverKey: join(dir, 'server.key'),
  };
};

/** Starts a child whose output goes to `<dir>/<name>.log`, kept for the report when something fails. */
export const startLogged = (
  dir: string,
  name: string,
  bin: string,
  args: readonly string[],
  env = process.env,
) => {
  const log = createWriteStream(join(dir, `${name}.log`));
  const child = spawn(bin, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.pipe(log);
  child.stderr.pipe(log);
  // A binary that cannot start says so in its log, which the run's error shows, instead of crashing the run.
  child.on('error', (error) => log.write(`harness: could not start ${bin}: ${error.message}\n`));
  return child;
};

export const logTail = (dir: string, name: string, lines = 15): string => {
  try {
    return readFileSync(join(dir, `${name}.log`), 'utf8')
      .trimEnd()
      .split('\n')
      .slice(-lines)
      .join('\n');
  } catch {
    return '(no log)';
  }
};

export const startEtcd = (dir: string, bin: string): ChildProcess =>
  startLogged(dir, 'etcd', bin, [
    '--name=rehearse',
    `--data-dir=${join(dir, 'etcd')}`,
    '--listen-client-urls=http://127.0.0.1:2379',
    '--advertise-client-urls=http://127.0.0.1:2379',
    '--listen-peer-urls=http://127.0.0.1:2380',
    '--initial-advertise-peer-urls=http://127.0.0.1:2380',
    '--initial-cluster=rehearse=http://127.0.0.1:2380',
  ]);

/** The admin token: system:masters, written only into the temp dir and never printed. */
export const makeAdminToken = (dir: string): string => {
  const token = randomBytes(24).toString('hex');
  writeFileSync(join(dir, 'tokens.csv'), `${token},rehearse-admin,rehearse-admin,"system:masters"\n`, {
    mode: 0o600,
  });
  return token;
};

export const startApiServer = (dir: string, bin: string, certs: Certificates): ChildProcess =>
  startLogged(dir, 'kube-apiserver', bin, [
    '--etcd-servers=http://127.0.0.1:2379',
    '--bind-address=127.0.0.1',
    '--advertise-address=127.0.0.1',
    '--secure-port=6443',
    `--tls-cert-file=${certs.serverCert}`,
    `--tls-private-key-file=${certs.serverKey}`,
    `--token-auth-file=${join(dir, 'tokens.csv')}`,
    // The stub kubelet serves the same certificate: verified, not skipped.
    `--kubelet-certificate-authority=${certs.caCert}`,
    '--authorization-mode=AlwaysAllow',
    `--service-account-key-file=${join(dir, 'sa.pub')}`,
    `--service-account-signing-key-file=${join(dir, 'sa.key')}`,
    '--service-account-issuer=https://kubernetes.default.svc',
    `--service-cluster-ip-range=${SERVICE_RANGE}`,
    // On loopback the default reconciler would publish 127.0.0.1 as the `kubernetes` Service's endpoint and fail.
    '--endpoint-reconciler-type=none',
    // No controller manager creates the `default` ServiceAccount that this admission plugin requires of pods.
    '--disable-admission-plugins=ServiceAccount',
    '--profiling=false',
  ]);

export interface Kube {
  readonly call: (method: string, path: string, body?: unknown, contentType?: string) => Promise<KubeAnswer>;
}

export interface KubeAnswer {
  readonly status: number;
  readonly body: unknown;
}

/** What a resource's collection is called in the API: `v1` kinds live under /api/v1, the others under /apis. */
export const collectionPath = (apiVersion: string, kind: string, namespace?: string): string => {
  const root = apiVersion === 'v1' ? '/api/v1' : `/apis/${apiVersion}`;
  const scope = namespace === undefined ? '' : `/namespaces/${namespace}`;
  return `${root}${scope}/${kind.toLowerCase()}s`;
};

export const kubeClient = (
  certs: Certificates,
  token: string,
  server = API_SERVER,
): Kube & { close: () => Promise<void> } => {
  const dispatcher = new Agent({ connect: { ca: readFileSync(certs.caCert) } });
  return {
    call: async (method, path, body, contentType = 'application/json') => {
      const answer = await request(`https://${server}${path}`, {
        method: method as 'GET',
        dispatcher,
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': contentType,
          accept: 'application/json',
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await answer.body.text();
      // Health endpoints answer plain text ("ok"); the API answers JSON.
      const json = String(answer.headers['content-type'] ?? '').startsWith('application/json');
      return { status: answer.statusCode, body: json ? JSON.parse(text) : text };
    },
    close: () => dispatcher.close(),
  };
};

/** Waits until `ready` holds, or throws with `what` and the last error `ready` threw after `timeoutMs`. */
export const waitFor = async (
  what: string,
  ready: () => Promise<boolean>,
  timeoutMs: number,
): Promise<void> => {
  const deadline = Date.now() + timeoutMs;
  let problem = '';
  while (Date.now() < deadline) {
    try {
      if (await ready()) return;
    } catch (error) {
      problem = `: ${(error as Error).message}${(error as { cause?: Error }).cause ? ` (${(error as { cause: Error }).cause.message})` : ''}`;
    }
    await sleep(250);
  }
  throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}${problem}`);
};
