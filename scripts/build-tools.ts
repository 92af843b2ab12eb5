// `npm run setup`'s Go tools: k6 for load runs, Toxiproxy and actionlint for the tests. Without Go it says in one
// line what is left out and exits 0, since conformance needs none of them; a build that breaks exits 1.
import { ACTIONLINT_TOOL } from './build-actionlint.ts';
import { K6_TOOL } from './build-k6.ts';
import { TOXIPROXY_TOOL } from './build-toxiproxy.ts';
import { installGoTools } from './go-tool.ts';

if (installGoTools([K6_TOOL, TOXIPROXY_TOOL, ACTIONLINT_TOOL]) === 'failed') process.exitCode = 1;
