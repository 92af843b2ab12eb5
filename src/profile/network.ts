// The network settings of a profile (flags already applied over it): TLS files read and checked once, before any
// traffic, so a wrong path or a file that is no certificate ends the run with one line naming it.
import { createPrivateKey, X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { ProxyOptions, TlsOptions } from '../client/network.ts';
import { InputError } from '../errors.ts';
import type { Profile } from '../spec/index.ts';

export interface Network {
  readonly tls: TlsOptions;
  readonly requestTimeoutMs?: number;
  readonly proxy: ProxyOptions;
}

type TlsFile = 'ca' | 'cert' | 'key';

const CHECKS: Record<TlsFile, { flag: string; is: string; check: (pem: Buffer) => unknown }> = {
  ca: { flag: '--ca', is: 'a PEM certificate', check: (pem) => new X509Certificate(pem) },
  cert: { flag: '--cert', is: 'a PEM certificate', check: (pem) => new X509Certificate(pem) },
  key: { flag: '--key', is: 'a PEM private key', check: (pem) => createPrivateKey(pem) },
};

const readTlsFile = (field: TlsFile, path: string | undefined): Partial<Record<TlsFile, Buffer>> => {
  if (path === undefined) return {};
  const { flag, is, check } = CHECKS[field];
  const where = `${flag} / tls.${field} ${path}`;
  let pem: Buffer;
  try {
    pem = readFileSync(path);
  } catch (error) {
    throw new InputError(`${where}: cannot read (${(error as NodeJS.ErrnoException).code ?? error})`);
  }
  try {
    check(pem);
  } catch {
    throw new InputError(`${where}: not ${is}`);
  }
  return { [field]: pem };
};

export const networkOf = (profile: Profile, proxy: ProxyOptions): Network => {
  const tls = profile.tls ?? {};
  return {
    tls: {
      ...readTlsFile('ca', tls.ca),
      ...readTlsFile('cert', tls.cert),
      ...readTlsFile('key', tls.key),
      ...(tls.insecure ? { insecure: true } : {}),
    },
    ...(profile.timeout_ms === undefined ? {} : { requestTimeoutMs: profile.timeout_ms }),
    proxy,
  };
};
