// `harness certify`: conformance with every check and every client, then `load --scenario all`, and one signed
// archive of every report, so a certifier can check later that nothing was changed (`harness verify`). An archive
// that cannot certify the target is written all the same, as evidence, and the run exits 1 saying why.

import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { archiveIndex, INDEX_PAGE } from '../certify/index-page.ts';
import { keyFingerprint, readPrivateKey, redactProfile, sealArchive, sha256 } from '../certify/manifest.ts';
import type { TarEntry } from '../certify/tar.ts';
import { InputError } from '../errors.ts';
import { findK6, k6VersionLine } from '../k6-driver/k6.ts';
import { plural } from '../plural.ts';
import { complain, say, tty } from '../printable.ts';
import { loadProfile } from '../profile/read.ts';
import { resolveTarget } from '../profile/target.ts';
import type { GradedPhase } from '../report/junit.ts';
import { type GradeCount, gradeCount } from '../report/run-verdict.ts';
import { REPORT_FORMATS } from '../report/write.ts';
import { GRADES } from '../runner/grades.ts';
import type { ClientRole, Profile } from '../spec/index.ts';
import { harnessCommit, harnessVersion } from '../version.ts';
import { type CertifyOptions, conformanceCommand, loadCommand, parsedOptions } from './commands.ts';
import { runConformanceCommand } from './conformance.ts';
import { completed, type ExitCode, exitCodeOf, exitWith, FAILED, NO_VERDICT, PASSED } from './exit-codes.ts';
import { runLoadCommand } from './load.ts';
import { whileInterruptible } from './signals.ts';

export const SPEC_FILE = resolve(import.meta.dirname, '../spec/SPEC.md');
/** Every check SPEC.md states needs its client: without one, a run skips checks and cannot certify. */
const EVERY_CLIENT: readonly ClientRole[] = ['primary', 'same_tenant', 'restricted', 'other_tenant'];

/** A run's report files, named under `folder/` in the archive. */
const reportFiles = (dir: string | undefined, folder: string): TarEntry[] =>
  dir === undefined
    ? []
    : readdirSync(dir, { withFileTypes: true })
        .filter((entry) => entry.isFile())
        .map((entry) => entry.name)
        .sort()
        .map((name) => ({ path: `${folder}/${name}`, data: readFileSync(join(dir, name)) }));

/**
 * `27 phases: 25 passed, 1 failed, 1 without a verdict, 0 skipped`: the phases load judged, each counted as its JUnit
 * file shows it (gradeCount; certify runs load without --strict).
 */
export const loadSummary = (exitCode: number, phases: readonly Pick<GradedPhase, 'grade'>[] = []): string => {
  if (phases.length === 0) return `exit ${exitCode}, no phase results`;
  const count = (kind: GradeCount) => phases.filter((p) => gradeCount(p.grade, true, false) === kind).length;
  return `exit ${exitCode}: ${plural(phases.length, 'phase')}: ${count('passed')} passed, ${count('failure')} failed, ${count('error')} without a verdict, ${count('skipped')} skipped`;
};

const checkInput = (options: CertifyOptions): Profile | undefined => {
  const outDir = dirname(resolve(options.out));
  if (!existsSync(outDir)) throw new InputError(`--out ${options.out}: no folder ${outDir}`);
  if (options.profile === undefined) return undefined;
  const profile = loadProfile(options.profile);
  const missing = EVERY_CLIENT.filter((role) => profile.clients[role] === undefined);
  if (missing.length > 0) {
    throw new InputError(
      `${options.profile}: certify runs every check, which needs ${missing.map((r) => `clients.${r}`).join(', ')}`,
    );
  }
  // An hour's run that could never certify is refused before it starts.
  const target = resolveTarget(profile);
  const keptOff = target.endpoints.filter((e) => !target.reachable(e)).map((e) => e.key);
  if (keptOff.length > 0) {
    throw new InputError(
      `${options.profile}: certify runs every check, which calls every endpoint; side_effects (or where ids come from) keeps harness off ${keptOff.join(', ')}`,
    );
  }
  return profile;
};

const runCertify = async (options: CertifyOptions, stop: AbortSignal): Promise<ExitCode> => {
  const key = readPrivateKey(options.key);
  const profile = checkInput(options);
  const k6 = k6VersionLine(findK6());
  // As a user would type the two runs: every default is the command line's own.
  const common = [...(options.profile === undefined ? [] : ['--profile', options.profile])];
  common.push('--report-dir', options.reportDir);
  const startedAt = new Date();
  complain(tty`harness certify: conformance, every check (token expiry beside the rest)`);
  const conformance = await runConformanceCommand(
    parsedOptions(conformanceCommand, [...common, '--slow', '--format', REPORT_FORMATS.join(',')]),
    stop,
  );
  const report = conformance.report;
  if (report === undefined) return conformance.exitCode;
  complain(tty`harness certify: load --scenario all`);
  const load = await runLoadCommand(parsedOptions(loadCommand, [...common, '--scenario', 'all']), stop);
  const finishedAt = new Date();
  // Reports that could not be written are none to archive: their folder may be gone or be a file by now.
  const loadFiles = reportFiles(load.reportsNotWritten ? undefined : load.dir, 'load');
  const files: TarEntry[] = [
    { path: 'SPEC.md', data: readFileSync(SPEC_FILE) },
    ...reportFiles(conformance.reportsNotWritten ? undefined : conformance.dir, 'conformance'),
    ...loadFiles,
  ];
  const notCertifiable = [
    ...(profile === undefined ? ['ran against the embedded reference server, not a target'] : []),
    ...report.notCertifiable,
    ...(conformance.reportsNotWritten ? ['the conformance reports could not be written'] : []),
    ...(load.reportsNotWritten ? ['the load reports could not be written'] : []),
    ...(load.exitCode === NO_VERDICT ? [`load reached no verdict on a phase (exit ${NO_VERDICT})`] : []),
    ...(completed(load.exitCode) ? [] : [`load did not complete (exit ${load.exitCode})`]),
  ];
  const body = {
    harness: { version: harnessVersion(), commit: harnessCommit() },
    spec: { path: 'SPEC.md' as const, sha256: sha256(files[0]!.data) },
    node: process.version,
    k6,
    target: { ...report.target, embedded: profile === undefined },
    profile: profile === undefined ? null : redactProfile(profile),
    startedAt: startedAt.toISOString(),
    finishedAt: finishedAt.toISOString(),
    certifiable: notCertifiable.length === 0,
    notCertifiable,
    conformance: {
      exitCode: conformance.exitCode,
      summary: `exit ${conformance.exitCode}: ${plural(report.checks.length, 'check')}: ${GRADES.map((g) => `${report.counts[g]} ${g}`).join(', ')}`,
    },
    load: { exitCode: load.exitCode, summary: loadSummary(load.exitCode, load.phases) },
  };
  const index = {
    path: INDEX_PAGE,
    data: Buffer.from(
      archiveIndex(
        body,
        files.map((f) => f.path),
        keyFingerprint(key),
      ),
    ),
  };
  const { archive, manifest } = sealArchive(body, [index, ...files], key, finishedAt);
  writeFileSync(options.out, archive);
  // The path, the summaries and the reasons quote the command line, the target's report and k6: escaped as such.
  say(
    tty`certification archive: ${options.out} (${files.length + 1} files and the signed manifest; unpacked, ${INDEX_PAGE} links them)`,
  );
  say(tty`signed: Ed25519, public key sha256 ${manifest.signer.publicKeySha256}`);
  say(tty`conformance: ${manifest.conformance.summary}`);
  say(tty`load: ${manifest.load.summary}`);
  say(tty`certifiable: ${manifest.certifiable ? 'yes' : `no: ${notCertifiable.join('; ')}`}`);
  // The archive is evidence either way; the exit code says whether it certifies the target: both runs passed, by the
  // rule both commands use, and nothing keeps the run from certifying (as conformance --require-certifiable).
  if (!manifest.certifiable) {
    complain(tty`harness certify: this run cannot certify the target: ${notCertifiable.join('; ')}`);
  }
  return exitCodeOf([conformance.exitCode, load.exitCode, manifest.certifiable ? PASSED : FAILED]);
};

export const certify = async (options: CertifyOptions): Promise<void> => {
  exitWith(await whileInterruptible((stop) => runCertify(options, stop)));
};
