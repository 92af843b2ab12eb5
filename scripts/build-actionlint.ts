// Builds the pinned actionlint into tools/ from the Go module proxy: the tests lint examples/ci/github-actions.yml
// with it, so the CI example is known to be a valid workflow (test/ci/examples.test.ts).
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

export const ACTIONLINT_PACKAGE = 'github.com/rhysd/actionlint/cmd/actionlint';
export const ACTIONLINT_VERSION = 'v1.7.12';
export const toolsActionlintPath = (): string => resolve(import.meta.dirname, '..', 'tools', 'actionlint');

/** `actionlint -version` prints the module version first, e.g. "v1.7.12". */
export const actionlintVersion = (bin: string): string | undefined => {
  try {
    return execFileSync(bin, ['-version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).split(
      '\n',
    )[0];
  } catch {
    return undefined;
  }
};

const install = (): void => {
  const target = toolsActionlintPath();
  // A per-user cache outside the clone, so a fresh clone (CI) reuses an earlier build instead of linking again.
  const cacheDir = join(
    process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'),
    'harness',
    `actionlint-${ACTIONLINT_VERSION}`,
  );
  const cached = join(cacheDir, 'actionlint');
  if (actionlintVersion(target) === ACTIONLINT_VERSION) {
    console.log(`harness: actionlint ${ACTIONLINT_VERSION} already in tools/`);
    return;
  }
  if (actionlintVersion(cached) !== ACTIONLINT_VERSION) {
    console.log(`harness: building ${ACTIONLINT_PACKAGE}@${ACTIONLINT_VERSION}`);
    execFileSync('go', ['install', `${ACTIONLINT_PACKAGE}@${ACTIONLINT_VERSION}`], {
      stdio: 'inherit',
      env: {
        ...process.env,
        GOBIN: cacheDir,
        // The proxy here serves modules but its checksum database may be unreachable; scoped to this build only.
        GOSUMDB: process.env.GOSUMDB ?? 'off',
        GOFLAGS: '-mod=mod',
        GOTOOLCHAIN: 'local',
      },
    });
  }
  mkdirSync(join(target, '..'), { recursive: true });
  copyFileSync(cached, target);
  console.log(`harness: installed actionlint ${ACTIONLINT_VERSION} at tools/actionlint`);
};

if (process.argv[1] === import.meta.filename) install();
