// Builds the pinned k6 into tools/ from the Go module proxy. See README "k6" for why this is a plain `go build`
// of k6's own main module rather than an xk6 run.
import { K6_MODULE, K6_VERSION, k6VersionLine } from '../src/cli/k6.ts';
import { buildInScratchModule, installGoTool } from './go-tool.ts';

installGoTool({
  name: 'k6',
  binary: 'k6',
  version: K6_VERSION,
  versionOf: k6VersionLine,
  isPinned: (line) => line.startsWith(`k6 ${K6_VERSION} `),
  build: buildInScratchModule(K6_MODULE, K6_MODULE, K6_VERSION),
});
