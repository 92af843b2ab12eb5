// A conformance run against the in-process reference server on virtual time (virtual-clock.ts, network.ts): the
// fault matrix and the accuracy sweep run this way in seconds, and one seed reproduces a run exactly. The real-time
// testbed (../testbed.ts) stays the check that the simulation agrees with reality.
import { allChecks } from '../../../conformance/index.ts';
import { resolveTarget } from '../../../src/profile/target.ts';
import {
  createJwtTokens,
  type JwtTokens,
  type ReferenceServerOptions,
  referenceListener,
} from '../../../src/reference/index.ts';
import type { NetworkCondition } from '../../../src/reference/toxiproxy.ts';
import { runConformance } from '../../../src/runner/runner.ts';
import { seededRandom } from '../../../src/runner/seeded-random.ts';
import { selectChecks } from '../../../src/runner/select.ts';
import type { RunReport } from '../../../src/runner/types.ts';
import type { Profile } from '../../../src/spec/index.ts';
import { SCALED } from '../testbed.ts';
import { simulatedLink, simulatedNetwork } from './network.ts';
import { VirtualClock } from './virtual-clock.ts';

/** A whole number of minutes since the epoch: `phaseMs` is then where in an aligned window the run starts. */
const EPOCH_MS = Date.UTC(2026, 0, 1);
/** Never connected to: requests go to the listener in-process. */
const BASE_URL = 'http://127.0.0.1:9';

export interface SimulatedSettings {
  readonly adjust?: (profile: Profile) => Profile;
  /** Check IDs or tags, as --only takes them. */
  readonly only?: readonly string[];
  readonly network?: NetworkCondition;
  /** Where in the clock's windows the run starts (an aligned limiter's phase). */
  readonly phaseMs?: number;
  /** The run's seed: the probes' wait polls and the network's delays both come from it. */
  readonly seed: number;
}

const tracked = (clock: VirtualClock, jwt: JwtTokens): JwtTokens => ({
  sign: (claims) => clock.track(jwt.sign(claims)),
  keyOf: (token) => clock.track(jwt.keyOf(token)),
});

/** Runs back to back against one server on one clock (the second finds every bucket spent by the first). */
export const simulateRuns = async (
  options: ReferenceServerOptions,
  settings: SimulatedSettings,
  runs: number,
): Promise<RunReport[]> => {
  const clock = new VirtualClock(EPOCH_MS + (settings.phaseMs ?? 0));
  const serverOptions = { ...SCALED, ...options, clock };
  const jwt = serverOptions.tokens === 'jwt' ? tracked(clock, await createJwtTokens()) : undefined;
  const server = referenceListener(serverOptions, BASE_URL, jwt);
  // The network draws from a stream of its own, so the probes' draws do not shift with the traffic.
  const transport = simulatedNetwork(
    clock,
    server.listener,
    simulatedLink(settings.network ?? 'lan'),
    seededRandom(settings.seed + 1),
  );
  const target = resolveTarget((settings.adjust ?? ((p: Profile) => p))(server.profile()));
  const reports: RunReport[] = [];
  for (let i = 0; i < runs; i++) {
    const selection = selectChecks(allChecks(target), {
      slow: true,
      ...(settings.only ? { only: settings.only } : {}),
    });
    const run = runConformance(target, selection, {
      provenance: { version: 'test', command: 'test' },
      seed: settings.seed + i,
      clock,
      http: { transport },
    });
    reports.push(await clock.run(run));
  }
  return reports;
};

export const runSimulated = async (
  options: ReferenceServerOptions,
  settings: SimulatedSettings,
): Promise<RunReport> => (await simulateRuns(options, settings, 1))[0]!;
