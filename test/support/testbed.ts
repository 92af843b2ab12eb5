// Runs the conformance suite in-process against a reference server (faithful, with a fault, with another limiter),
// directly or through Toxiproxy: the tests and the accuracy-matrix benchmark both drive it.

import { setTimeout as sleep } from 'node:timers/promises';
import { allChecks } from '../../conformance/index.ts';
import { resolveTarget } from '../../src/profile/target.ts';
import {
  EMBEDDED_SCALE,
  type ReferenceServerOptions,
  startReferenceServer,
} from '../../src/reference/index.ts';
import { type NetworkCondition, startReferenceBehind } from '../../src/reference/toxiproxy.ts';
import { runConformance } from '../../src/runner/runner.ts';
import { selectChecks } from '../../src/runner/select.ts';
import type { RunReport } from '../../src/runner/types.ts';
import type { Profile } from '../../src/spec/index.ts';

/** The embedded server's time scale (EMBEDDED_SCALE), as `harness conformance` runs it without a profile. */
export const SCALED: ReferenceServerOptions = {
  ...EMBEDDED_SCALE,
  // A smaller per-second burst keeps parallel test runs well inside one window on a loaded 2-core machine.
  limits: { 'transaction-event': { count: 100, per: 'second' } },
};

export interface RunSettings {
  readonly runs?: number;
  readonly adjust?: (profile: Profile) => Profile;
  /** Check IDs or tags, as --only takes them. */
  readonly only?: readonly string[];
  /** Toxiproxy between harness and the server (lan: a proxy with no toxic). */
  readonly network?: NetworkCondition;
  /**
   * How long after the server started the run starts: where in the clock's windows an aligned limiter's probe begins.
   * (Traffic to open an anchored window earlier would be outside traffic to harness, which no run can tell apart from
   * a limit set low; harness's own checks before the probes send such requests.)
   */
  readonly phaseMs?: number;
  /** Where the probes' wait polls land in a window (a new one each run without it). */
  readonly seed?: number;
}

export const runAgainst = async (
  options: ReferenceServerOptions = {},
  settings: RunSettings = {},
): Promise<RunReport[]> => {
  const serverOptions = { ...SCALED, ...options };
  const behind =
    settings.network === undefined ? undefined : await startReferenceBehind(settings.network, serverOptions);
  const server = behind?.server ?? (await startReferenceServer(serverOptions));
  try {
    const profile = behind?.profile ?? server.profile();
    const target = resolveTarget((settings.adjust ?? ((p: Profile) => p))(profile));
    if (settings.phaseMs !== undefined) await sleep(settings.phaseMs);
    const reports: RunReport[] = [];
    for (let i = 0; i < (settings.runs ?? 1); i++) {
      const selection = selectChecks(allChecks(target), {
        slow: true,
        ...(settings.only ? { only: settings.only } : {}),
      });
      reports.push(
        await runConformance(target, selection, {
          provenance: { version: 'test', command: 'test' },
          ...(settings.seed ? { seed: settings.seed } : {}),
        }),
      );
    }
    return reports;
  } finally {
    await (behind ?? server).close();
  }
};

/** The checks that did not pass, as `ID: GRADE`, leaving out INFO (records) and PASS. */
export const deviations = (report: RunReport): Record<string, string> =>
  Object.fromEntries(
    report.checks.filter((c) => c.grade !== 'PASS' && c.grade !== 'INFO').map((c) => [c.id, c.grade]),
  );
