// Runs the whole conformance suite in-process against a reference server: the faithful one or one with a fault.
import { allChecks } from '../../conformance/index.ts';
import { silentProgress } from '../../src/conformance/progress.ts';
import { runConformance } from '../../src/conformance/runner.ts';
import { selectChecks } from '../../src/conformance/select.ts';
import { resolveTarget } from '../../src/conformance/target.ts';
import type { RunReport } from '../../src/conformance/types.ts';
import { type ReferenceServerOptions, startReferenceServer } from '../../src/reference/index.ts';
import type { Profile } from '../../src/spec/index.ts';
import { type NetworkCondition, startReferenceBehind } from '../../src/testbed/toxiproxy.ts';

/** Time scaled so a full run takes seconds: two-second "minutes" (room for a burst on a loaded machine), a 2 s token. */
export const SCALED: ReferenceServerOptions = {
  minuteMs: 2000,
  tokenLifetimeSeconds: 2,
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
}

export const runAgainst = async (
  options: ReferenceServerOptions = {},
  runsOrSettings: number | RunSettings = 1,
  adjust: (profile: Profile) => Profile = (profile) => profile,
): Promise<RunReport[]> => {
  const settings = typeof runsOrSettings === 'number' ? { runs: runsOrSettings, adjust } : runsOrSettings;
  const serverOptions = { ...SCALED, ...options };
  const behind =
    settings.network === undefined ? undefined : await startReferenceBehind(settings.network, serverOptions);
  const server = behind?.server ?? (await startReferenceServer(serverOptions));
  try {
    const profile = behind?.profile ?? server.profile();
    const target = resolveTarget((settings.adjust ?? ((p: Profile) => p))(profile));
    const reports: RunReport[] = [];
    for (let i = 0; i < (settings.runs ?? 1); i++) {
      const selection = selectChecks(allChecks(target), {
        slow: true,
        ...(settings.only ? { only: settings.only } : {}),
      });
      reports.push(
        await runConformance(target, selection, {
          progress: silentProgress,
          version: 'test',
          command: 'test',
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
    report.checks
      .filter((c) => c.grade !== 'PASS' && c.grade !== 'INFO' && !c.message.startsWith('not selected'))
      .map((c) => [c.id, c.grade]),
  );
