// Builds the pinned Toxiproxy server into tools/ from the Go module proxy: the test bed puts it between harness and
// the reference server to give loopback the round trips of a real network (src/reference/toxiproxy.ts).
import {
  TOXIPROXY_BINARY_NAME,
  TOXIPROXY_MODULE,
  TOXIPROXY_SERVER_PACKAGE,
  TOXIPROXY_VERSION,
  toxiproxyVersionLine,
} from '../src/reference/toxiproxy-binary.ts';
import { buildInScratchModule, installOrExit, type SetupTool } from './go-tool.ts';

const bare = TOXIPROXY_VERSION.slice(1);

export const TOXIPROXY_TOOL: SetupTool = {
  name: 'toxiproxy',
  binary: TOXIPROXY_BINARY_NAME,
  version: TOXIPROXY_VERSION,
  versionOf: toxiproxyVersionLine,
  // The release build prints the version without its `v`: "toxiproxy-server version 2.5.0".
  isPinned: (line) => line === `toxiproxy-server version ${bare}`,
  // Toxiproxy's own release build stamps its version this way; without it `-version` prints "git".
  build: buildInScratchModule(
    TOXIPROXY_MODULE,
    TOXIPROXY_SERVER_PACKAGE,
    TOXIPROXY_VERSION,
    `-X ${TOXIPROXY_MODULE}.Version=${bare}`,
  ),
  withoutIt: 'the network tests need Toxiproxy (with Go 1.25+, `npm run build:toxiproxy`)',
};

if (process.argv[1] === import.meta.filename) installOrExit(TOXIPROXY_TOOL);
