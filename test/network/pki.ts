// A throwaway PKI for TLS tests, made with the openssl CLI at test time: a CA, a server certificate for 127.0.0.1
// and a client certificate, all signed by it, and a second CA that signed nothing the server uses.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface Pki {
  readonly ca: string;
  readonly otherCa: string;
  readonly serverCert: string;
  readonly serverKey: string;
  readonly clientCert: string;
  readonly clientKey: string;
}

const openssl = (dir: string, ...args: string[]) =>
  execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });

const ca = (dir: string, name: string): void => {
  openssl(
    dir,
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:P-256',
    '-nodes',
    '-days',
    '2',
    '-subj',
    `/CN=harness test ${name}`,
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign',
    '-keyout',
    `${name}.key`,
    '-out',
    `${name}.pem`,
  );
};

const leaf = (dir: string, name: string, extensions: string): void => {
  writeFileSync(join(dir, `${name}.ext`), extensions);
  openssl(
    dir,
    'req',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:P-256',
    '-nodes',
    '-subj',
    `/CN=harness test ${name}`,
    '-keyout',
    `${name}.key`,
    '-out',
    `${name}.csr`,
  );
  openssl(
    dir,
    'x509',
    '-req',
    '-in',
    `${name}.csr`,
    '-CA',
    'ca.pem',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-days',
    '2',
    '-extfile',
    `${name}.ext`,
    '-out',
    `${name}.pem`,
  );
};

export const makePki = (dir: string): Pki => {
  ca(dir, 'ca');
  ca(dir, 'other-ca');
  leaf(dir, 'server', 'subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth\n');
  leaf(dir, 'client', 'extendedKeyUsage=clientAuth\n');
  const at = (file: string) => join(dir, file);
  return {
    ca: at('ca.pem'),
    otherCa: at('other-ca.pem'),
    serverCert: at('server.pem'),
    serverKey: at('server.key'),
    clientCert: at('client.pem'),
    clientKey: at('client.key'),
  };
};
