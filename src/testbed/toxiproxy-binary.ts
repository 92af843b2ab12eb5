// Where the test bed finds Toxiproxy: TOXIPROXY_BIN, then the tools folder that `npm run setup` fills.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const TOXIPROXY_MODULE = 'github.com/Shopify/toxiproxy/v2';
export const TOXIPROXY_SERVER_PACKAGE = `${TOXIPROXY_MODULE}/cmd/server`;
export const TOXIPROXY_VERSION = 'v2.5.0';
export const TOXIPROXY_BINARY_NAME = 'toxiproxy-server';

const repoRoot = resolve(import.meta.dirname, '..', '..');

export const toolsToxiproxyPath = (): string => join(repoRoot, 'tools', TOXIPROXY_BINARY_NAME);

export const toxiproxyVersionLine = (bin: string): string =>
  execFileSync(bin, ['-version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();

/** The binary to run, or undefined when none is built (tests skip, saying why). */
export const findToxiproxy = (env: NodeJS.ProcessEnv = process.env): string | undefined => {
  const candidate = env.TOXIPROXY_BIN ?? toolsToxiproxyPath();
  return existsSync(candidate) ? candidate : undefined;
};
