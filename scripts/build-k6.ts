// Builds the pinned k6 into tools/ from the Go module proxy, with harness's output and token reader added
// (load/checkpoint). See CONTRIBUTING.md, "k6", for why this is a plain `go build` rather than an xk6 run.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  CHECKPOINT_OUTPUT,
  K6_MODULE,
  K6_VERSION,
  k6VersionLine,
  TOKEN_MODULE,
} from '../src/k6-driver/k6.ts';
import { buildInScratchModule, installOrExit, type SetupTool } from './go-tool.ts';

const SOURCES = resolve(import.meta.dirname, '..', 'load', 'checkpoint');

/** Names the cache folder: another version of the sources is another build. */
const sourcesDigest = (): string => {
  const hash = createHash('sha256');
  for (const name of readdirSync(SOURCES).sort()) hash.update(name).update(readFileSync(join(SOURCES, name)));
  return hash.digest('hex').slice(0, 12);
};

export const K6_TOOL: SetupTool = {
  name: `k6-${CHECKPOINT_OUTPUT}-${sourcesDigest()}`,
  binary: 'k6',
  version: K6_VERSION,
  versionOf: k6VersionLine,
  isPinned: (said) =>
    said.startsWith(`k6 ${K6_VERSION} `) && said.includes(CHECKPOINT_OUTPUT) && said.includes(TOKEN_MODULE),
  build: buildInScratchModule(K6_MODULE, K6_MODULE, K6_VERSION, '', SOURCES),
  withoutIt:
    'load needs k6 v2: put a k6 v2 release (https://github.com/grafana/k6/releases) on PATH or in K6_BIN, ' +
    `or install Go 1.25+ and run \`npm run build:k6\` for harness's ${K6_VERSION} build, or use the container image (docs/container.md)`,
};

if (process.argv[1] === import.meta.filename) installOrExit(K6_TOOL);
