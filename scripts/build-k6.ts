// Builds the pinned k6 into tools/ from the Go module proxy. See README "k6" for why this is a plain `go build`
// of k6's own main module rather than an xk6 run.
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { K6_MODULE, K6_VERSION, k6VersionLine, TOOLS_DIR } from '../src/cli/k6.ts';

const root = resolve(import.meta.dirname, '..');
const tools = join(root, TOOLS_DIR);
const target = join(tools, 'k6');
const stamp = join(tools, 'k6.version');
// A per-user cache outside the clone, so a fresh clone (CI) reuses an earlier build instead of linking again.
const cacheDir = join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'harness', `k6-${K6_VERSION}`);
const cached = join(cacheDir, 'k6');

const isWanted = (bin: string): boolean => {
  try {
    return k6VersionLine(bin).startsWith(`k6 ${K6_VERSION} `);
  } catch {
    return false;
  }
};

const goEnv = {
  ...process.env,
  // The proxy here serves modules but its checksum database may be unreachable; scoped to this build only.
  GOSUMDB: process.env.GOSUMDB ?? 'off',
  GOFLAGS: '-mod=mod',
  GOTOOLCHAIN: 'local',
};

const build = (): void => {
  const work = join(cacheDir, 'module');
  mkdirSync(work, { recursive: true });
  writeFileSync(join(work, 'go.mod'), 'module harness/k6build\n\ngo 1.25\n');
  const go = (...args: string[]) => execFileSync('go', args, { cwd: work, env: goEnv, stdio: 'inherit' });
  console.log(`harness: building ${K6_MODULE}@${K6_VERSION} (first time takes a few minutes)`);
  go('get', `${K6_MODULE}@${K6_VERSION}`);
  go('build', '-trimpath', '-ldflags=-s -w', '-o', cached, K6_MODULE);
};

if (existsSync(stamp) && readFileSync(stamp, 'utf8').trim() === K6_VERSION && isWanted(target)) {
  console.log(`harness: ${k6VersionLine(target)} already in ${TOOLS_DIR}/`);
} else {
  if (!isWanted(cached)) build();
  mkdirSync(tools, { recursive: true });
  copyFileSync(cached, target);
  writeFileSync(stamp, `${K6_VERSION}\n`);
  console.log(`harness: installed ${k6VersionLine(target)} at ${TOOLS_DIR}/k6`);
}
