// Builds the pinned actionlint into tools/ from the Go module proxy: the tests lint examples/ci/github-actions.yml
// with it, so the CI example is known to be a valid workflow (test/ci/examples.test.ts).
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { goInstall, installOrExit, type SetupTool, TOOLS } from './go-tool.ts';

export const ACTIONLINT_PACKAGE = 'github.com/rhysd/actionlint/cmd/actionlint';
export const ACTIONLINT_VERSION = 'v1.7.12';
export const toolsActionlintPath = (): string => join(TOOLS, 'actionlint');

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

export const ACTIONLINT_TOOL: SetupTool = {
  name: 'actionlint',
  binary: 'actionlint',
  version: ACTIONLINT_VERSION,
  versionOf: actionlintVersion,
  isPinned: (said) => said === ACTIONLINT_VERSION,
  // `go install` of the module itself, so actionlint finds its own version in the build info.
  build: goInstall(ACTIONLINT_PACKAGE, ACTIONLINT_VERSION),
  withoutIt: 'the lint of the CI examples needs actionlint (with Go 1.25+, `npm run build:actionlint`)',
};

if (process.argv[1] === import.meta.filename) installOrExit(ACTIONLINT_TOOL);
