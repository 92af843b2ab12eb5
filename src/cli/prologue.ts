// What `harness conformance` and `harness load` do alike before their first request that counts: the embedded
// reference server or the profile's target, the network flags over it, the run's report folder, and whether the
// target answers at all (exit 3 with a report that says why, when it does not).
import { complain, say, tty } from '../printable.ts';
import type { Network } from '../profile/network.ts';
import { profileRedactor, warnOfPlainTextSecrets } from '../profile/secrets.ts';
import { resolveTarget, type Target } from '../profile/target.ts';
import type { RunningReferenceServer } from '../reference/index.ts';
import { reportsLine } from '../report/reports-line.ts';
import { type UNREACHABLE, type UNUSABLE, writeUnreachableReports } from '../report/unreachable.ts';
import type { WriteOptions } from '../report/write.ts';
import type { Profile } from '../spec/index.ts';
import { type ExitCode, exitCodeOf, TARGET_UNREACHABLE } from './exit-codes.ts';
import { type NetworkFlags, networkFor, unreachableOrigins, withNetworkFlags } from './network.ts';
import { lostReports, reportDirFor, saveReports } from './report-dir.ts';

export interface PreparedTarget {
  /** The profile with the network flags applied. */
  readonly profile: Profile;
  readonly target: Target;
  readonly network: Network;
  readonly embedded: boolean;
  /** The line with the profile's secrets hidden, for anything printed or reported. */
  readonly hide: (line: string) => string;
}

/** Where the run goes: the embedded server (started here, closed after `body`) or the profile the flags name. */
export type TargetSource =
  | { readonly embedded: () => Promise<RunningReferenceServer> }
  | { readonly profile: () => Profile };

export const withTarget = async <T>(
  source: TargetSource,
  flags: NetworkFlags,
  body: (prepared: PreparedTarget) => Promise<T>,
): Promise<T> => {
  const run = (base: Profile, embedded: boolean) => {
    const profile = withNetworkFlags(base, flags);
    const redactor = profileRedactor(profile);
    return body({
      profile,
      target: resolveTarget(profile),
      network: networkFor(profile, embedded),
      embedded,
      hide: (line) => redactor.known(line),
    });
  };
  if ('profile' in source) return run(source.profile(), false);
  const server = await source.embedded();
  try {
    return await run(server.profile(), true);
  } finally {
    await server.close();
  }
};

/** ` (embedded reference server)` after the target's URL in a run's first line, when it is. */
export const embeddedNote = ({ embedded }: PreparedTarget): string =>
  embedded ? ' (embedded reference server)' : '';

/**
 * The run's report folder, made before the first request so a place that cannot hold reports loses no run, and the
 * origins that do not answer (none: the run may start; the profile's plain-text secrets are warned of then), asked
 * within `withinMs`, the run's deadline, when it has one.
 */
export const openRun = async (
  prepared: PreparedTarget,
  reportDir: string,
  withinMs?: number,
): Promise<{ readonly dir: string; readonly unreachable?: string }> => {
  const dir = await reportDirFor(reportDir);
  const unreachable = await unreachableOrigins(prepared.profile, prepared.network, withinMs);
  if (unreachable.length > 0) return { dir, unreachable: unreachable.join('; ') };
  warnOfPlainTextSecrets(prepared.profile, complain);
  return { dir };
};

/**
 * Exit 3: no check or phase ran. `reason` on stderr, and in the reports CI shows (`files`, name to content), where the
 * job would otherwise find no file; exit 6 when those cannot be written.
 */
export const reportNoRun = async (
  dir: string,
  what: typeof UNREACHABLE | typeof UNUSABLE,
  noun: 'check' | 'phase',
  reason: string,
  markdown: string,
  files: Readonly<Record<string, string>>,
  options?: WriteOptions,
): Promise<{
  readonly files: readonly string[];
  readonly exitCode: ExitCode;
  readonly reportsNotWritten?: true;
}> => {
  // The reason quotes what the target answered, or the error it caused.
  complain(tty`harness: ${reason}`);
  const saved = await saveReports(() => writeUnreachableReports(dir, files, options), markdown);
  if (saved.files.length > 0) say(tty`${reportsLine(saved.files)}`);
  const exitCode = exitCodeOf([TARGET_UNREACHABLE, saved.exitCode]);
  say(tty`summary: ${what}: no ${noun} run (exit ${exitCode})`);
  return { files: saved.files, exitCode, ...lostReports(saved) };
};
