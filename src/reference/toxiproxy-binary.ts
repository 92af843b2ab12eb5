// Where harness finds Toxiproxy (serve --network, the test bed): TOXIPROXY_BIN, then the tools folder that
// `npm run setup` fills.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../version.ts';

export const TOXIPROXY_MODULE = 'github.com/Shopify/toxiproxy/v2';
export const TOXIPROXY_SERVER_PACKAGE = `${TOXIPROXY_MODULE}/cmd/server`;
export const TOXIPROXY_VERSION = 'v2.5.0';
export const TOXIPROXY_BINARY_NAME = 'toxiproxy-server';

// The package's root, found the same way from source and from an installed package's dist/.
export const toolsToxiproxyPath = (): string => join(packageRoot(), 'tools', TOXIPROXY_BINARY_NAME);

/** How to get the binary, in a clone and in an installed package alike (`go install` names it after its folder). */
export const HOW_TO_GET_TOXIPROXY =
  `in a clone of harness, \`npm run setup\` (or \`npm run build:toxiproxy\`) builds it into tools/; ` +
  `anywhere, with Go: \`GOBIN=$PWD go install ${TOXIPROXY_SERVER_PACKAGE}@${TOXIPROXY_VERSION}\`, ` +
  'then set TOXIPROXY_BIN=$PWD/server';

export const toxiproxyVersionLine = (bin: string): string =>
  execFileSync(bin, ['-version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();

/** The binary to run, or undefined when none is built (tests skip, saying why). */
export const findToxiproxy = (env: NodeJS.ProcessEnv = process.env): string | undefined => {
  const candidate = env.TOXIPROXY_BIN ?? toolsToxiproxyPath();
  return existsSync(candidate) ? candidate : undefined;
};
