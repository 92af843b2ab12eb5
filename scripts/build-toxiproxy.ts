// Builds the pinned Toxiproxy server into tools/ from the Go module proxy: the test bed puts it between harness and
// the reference server to give loopback the round trips of a real network (src/testbed/toxiproxy.ts).
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import {
  TOXIPROXY_BINARY_NAME,
  TOXIPROXY_MODULE,
  TOXIPROXY_SERVER_PACKAGE,
  TOXIPROXY_VERSION,
  toolsToxiproxyPath,
  toxiproxyVersionLine,
} from '../src/testbed/toxiproxy-binary.ts';

const target = toolsToxiproxyPath();
// A per-user cache outside the clone, so a fresh clone (CI) reuses an earlier build instead of linking again.
const cacheDir = join(
  process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'),
  'harness',
  `toxiproxy-${TOXIPROXY_VERSION}`,
);
const cached = join(cacheDir, TOXIPROXY_BINARY_NAME);

const isWanted = (bin: string): boolean => {
  try {
    // The release build prints the version without its `v`: "toxiproxy-server version 2.5.0".
    return toxiproxyVersionLine(bin) === `toxiproxy-server version ${TOXIPROXY_VERSION.slice(1)}`;
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
  writeFileSync(join(work, 'go.mod'), 'module harness/toxiproxybuild\n\ngo 1.25\n');
  const go = (...args: string[]) => execFileSync('go', args, { cwd: work, env: goEnv, stdio: 'inherit' });
  console.log(`harness: building ${TOXIPROXY_SERVER_PACKAGE}@${TOXIPROXY_VERSION}`);
  go('get', `${TOXIPROXY_MODULE}@${TOXIPROXY_VERSION}`);
  // Toxiproxy's own release build stamps its version this way; without it `-version` prints "git".
  const stamp = `-X ${TOXIPROXY_MODULE}.Version=${TOXIPROXY_VERSION.slice(1)}`;
  go('build', '-trimpath', `-ldflags=-s -w ${stamp}`, '-o', cached, TOXIPROXY_SERVER_PACKAGE);
};

if (isWanted(target)) {
  console.log(`harness: ${toxiproxyVersionLine(target)} already in tools/`);
} else {
  if (!isWanted(cached)) build();
  mkdirSync(join(target, '..'), { recursive: true });
  copyFileSync(cached, target);
  console.log(`harness: installed ${toxiproxyVersionLine(target)} at tools/${TOXIPROXY_BINARY_NAME}`);
}
