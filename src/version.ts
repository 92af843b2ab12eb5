// What build of harness is running: its version, and the commit it was built from (recorded in certification
// evidence, so a certifier can tell exactly which harness produced it).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/** harness's name on npm, where `harness` itself is taken; the command it installs is still `harness`. */
const PACKAGE_NAME = 'conformance-harness';

/** The folder holding harness's package.json: the clone, or the installed package when run from dist/. */
export const packageRoot = (): string => {
  for (let dir = resolve(import.meta.dirname); dir !== dirname(dir); dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    if (
      existsSync(file) &&
      (JSON.parse(readFileSync(file, 'utf8')) as { name?: string }).name === PACKAGE_NAME
    )
      return dir;
  }
  throw new Error(`no ${PACKAGE_NAME} package.json above ${import.meta.dirname}`);
};

export const harnessVersion = (): string =>
  (JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version: string }).version;

/** Written by the package build (scripts/build.ts), since an installed package has no git history. */
export const BUILD_INFO = 'dist/build-info.json';

const gitCommit = (cwd: string): string | undefined => {
  try {
    const git = (...args: string[]) =>
      execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    const commit = git('rev-parse', 'HEAD');
    // Uncommitted changes to tracked files mean the commit alone does not say what ran.
    return git('status', '--porcelain', '--untracked-files=no') === '' ? commit : `${commit}-dirty`;
  } catch {
    return undefined;
  }
};

/** A clone asks git (a dist/ left from an earlier build may be stale); an installed package reads its build info. */
export const harnessCommit = (): string => {
  const root = packageRoot();
  const fromGit = existsSync(join(root, '.git')) ? gitCommit(root) : undefined;
  if (fromGit !== undefined) return fromGit;
  const info = join(root, BUILD_INFO);
  return existsSync(info) ? (JSON.parse(readFileSync(info, 'utf8')) as { commit: string }).commit : 'unknown';
};
