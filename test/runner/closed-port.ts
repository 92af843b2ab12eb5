// Runs made-up checks through the real runner against a target on a loopback port nothing listens on: every request,
// the token request included, is refused at once, so what a check gets is what its own code decides.
import { createServer } from 'node:net';
import { resolveTarget } from '../../src/profile/target.ts';
import type { Selected } from '../../src/runner/plan.ts';
import { runConformance } from '../../src/runner/runner.ts';
import type { CheckDefinition, RunReport } from '../../src/runner/types.ts';

const closedPort = async (): Promise<number> => {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
};

/** A check that does only what `run` does. */
export const madeUpCheck = (
  id: string,
  run: CheckDefinition['run'],
  failsWith: CheckDefinition['failsWith'] = ['FAIL'],
) =>
  ({
    id,
    title: id,
    clause: '§4',
    quote: 'All API endpoints require the bearer token described in Authentication.',
    tags: ['test'],
    lane: 'token',
    required: false,
    failsWith,
    plan: () => [],
    run,
  }) satisfies CheckDefinition;

/** The report of running `selection` against the closed port, with only a primary client of that secret. */
export const runOnClosedPort = async (selection: readonly Selected[], secret: string): Promise<RunReport> => {
  const port = await closedPort();
  const target = resolveTarget({
    base_url: `http://127.0.0.1:${port}`,
    auth_url: `http://127.0.0.1:${port}/oauth2/token`,
    tenant: 'acme',
    clients: { primary: { client_id: 'a', client_secret: secret } },
  });
  return runConformance(target, selection, { provenance: { version: 'test', command: 'test' } });
};
