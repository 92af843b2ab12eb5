// A target's network settings in the form k6 takes them. k6 (Go's net/http) reads HTTP_PROXY, HTTPS_PROXY and
// NO_PROXY itself, trusts a private CA through SSL_CERT_FILE, and takes a client certificate and --insecure only as
// options, passed here in a `--config` file, which ranks below the script's own options but sets nothing they do;
// the request timeout is a per-request parameter, which reaches the scripts with the rest of the run (run.ts).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rootCertificates } from 'node:tls';
import type { Network } from '../profile/network.ts';

export interface K6Network {
  readonly env: Readonly<Record<string, string>>;
  readonly args: readonly string[];
  /** The folder of those files, for the watchdog that removes it should harness be killed (src/child-group.ts). */
  readonly dir: string;
  /** Removes the files written for k6 (the config holds the client key). */
  dispose(): void;
}

const PROXY_VARIABLES = [
  ['HTTP_PROXY', 'httpProxy'],
  ['HTTPS_PROXY', 'httpsProxy'],
  ['NO_PROXY', 'noProxy'],
] as const;

export const k6Network = (network: Network): K6Network => {
  const dir = mkdtempSync(join(tmpdir(), 'harness-k6-'));
  const env: Record<string, string> = {};
  // Both spellings, with harness's reading of them: Go prefers the upper-case one, harness the lower-case one.
  for (const [name, key] of PROXY_VARIABLES) {
    env[name] = network.proxy[key] ?? '';
    env[name.toLowerCase()] = network.proxy[key] ?? '';
  }
  const { ca, cert, key, insecure } = network.tls;
  if (ca !== undefined) {
    // SSL_CERT_FILE replaces the file Go reads its roots from: the extra CA goes in beside the usual roots.
    const bundle = join(dir, 'ca-bundle.pem');
    writeFileSync(bundle, `${[...rootCertificates, ca.toString('utf8')].join('\n')}\n`);
    env.SSL_CERT_FILE = bundle;
  }
  const options = {
    ...(cert !== undefined && key !== undefined
      ? { tlsAuth: [{ cert: cert.toString('utf8'), key: key.toString('utf8') }] }
      : {}),
    ...(insecure ? { insecureSkipTLSVerify: true } : {}),
  };
  const args: string[] = [];
  if (Object.keys(options).length > 0) {
    const config = join(dir, 'k6-options.json');
    writeFileSync(config, JSON.stringify(options), { mode: 0o600 });
    args.push('--config', config);
  }
  // Removed on exit too, however harness ends (a second Ctrl-C exits at once), since the config holds a key.
  const remove = () => rmSync(dir, { recursive: true, force: true });
  process.once('exit', remove);
  return {
    env,
    args,
    dir,
    dispose: () => {
      process.off('exit', remove);
      remove();
    },
  };
};
