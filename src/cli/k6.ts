// Where harness finds k6: K6_BIN, then the tools folder that `npm run setup` fills, then PATH.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { delimiter, join, resolve } from 'node:path';
import { UsageError } from './errors.ts';

export const K6_MODULE = 'go.k6.io/k6/v2';
export const K6_VERSION = 'v2.2.0';
export const TOOLS_DIR = 'tools';

const repoRoot = resolve(import.meta.dirname, '..', '..');

export const k6VersionLine = (bin: string): string =>
  execFileSync(bin, ['version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();

export const findK6 = (env: NodeJS.ProcessEnv = process.env): string => {
  if (env.K6_BIN) {
    if (!existsSync(env.K6_BIN)) throw new UsageError(`K6_BIN points at ${env.K6_BIN}, which does not exist`);
    return env.K6_BIN;
  }
  const candidates = [
    join(repoRoot, TOOLS_DIR, 'k6'),
    ...(env.PATH ?? '').split(delimiter).map((dir) => join(dir, 'k6')),
  ];
  const found = candidates.find((bin) => existsSync(bin));
  if (!found) {
    throw new UsageError(
      `k6 not found: run \`npm run setup\` (builds ${K6_MODULE}@${K6_VERSION} into ${TOOLS_DIR}/), or set K6_BIN`,
    );
  }
  return found;
};
