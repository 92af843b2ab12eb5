// `harness replay CHECK-ID`: one check run again on the target as conformance runs it (a limit check with its
// bucket's whole probe: bursts no shell loop of curls can send in time), its verdict and evidence printed last.
// The run is conformance's own, so it writes the same reports and exits with the same code.
import type { Evidence } from '../client/index.ts';
import { InputError, isHarnessError } from '../errors.ts';
import { say, type TerminalText, tty } from '../printable.ts';
import { REPORT_FORMATS } from '../report/write.ts';
import type { CheckResult } from '../runner/types.ts';
import type { ReplayOptions } from './commands.ts';
import { runConformanceCommand } from './conformance.ts';
import { exitWith, PASSED } from './exit-codes.ts';
import { checksToReplay, markReplayed, runToReplay } from './replay-failed.ts';
import { whileInterruptible } from './signals.ts';

/** Headers that say how the bytes travelled, not what the server decided. */
const TRANSPORT_HEADERS = new Set([
  'date',
  'connection',
  'keep-alive',
  'content-length',
  'transfer-encoding',
]);
/** How much of an answer's headers and body a line shows: the proof is in the first few hundred characters. */
const SHOWN_CHARS = 400;

const bounded = (text: string): string =>
  text.length <= SHOWN_CHARS ? text : `${text.slice(0, SHOWN_CHARS)}… (${text.length} characters)`;

/** Its lines, each through `tty`: labels, URLs, messages and answers all quote what the target sent. */
const evidenceLines = (evidence: Evidence): TerminalText[] => {
  const { label, request, response, error, durationMs } = evidence;
  const answer = response
    ? `${response.status}`
    : `no answer${error === undefined ? '' : ` (${error.kind})`}`;
  const sent = `${label === undefined ? '' : `'${label}' `}${request.method} ${request.url}`;
  const lines = [tty`${sent} → ${answer}, ${Math.round(durationMs)} ms`];
  if (response === undefined) return lines;
  // The answer the grade was read from: a token_type, a WWW-Authenticate, a Retry-After, a RateLimit field.
  const headers = Object.entries(response.headers).filter(([name]) => !TRANSPORT_HEADERS.has(name));
  if (headers.length > 0)
    lines.push(tty`  ${bounded(headers.map(([name, value]) => `${name}: ${value}`).join('; '))}`);
  if (response.body !== undefined) lines.push(tty`  ${bounded(response.body)}`);
  return lines;
};

const printReplayed = (check: CheckResult): void => {
  say(tty``);
  say(tty`replayed ${check.id} (${check.clause}): ${check.grade}`);
  say(tty`  ${check.message}`);
  if (check.evidence.length > 0) say(tty`  evidence:`);
  for (const evidence of check.evidence) for (const line of evidenceLines(evidence)) say(tty`    ${line}`);
};

/** The name is matched as --only matches it: a check ID, or a tag naming several (each printed). */
const named = (check: CheckResult, name: string): boolean =>
  check.id.toLowerCase() === name.toLowerCase() || check.tags.includes(name.toLowerCase());

/** One conformance run of `only`, on the target the flags name, its reports beside the run's but `latest` unmoved. */
const replayRun = (
  only: readonly string[],
  options: Omit<ReplayOptions, 'failed'>,
  stop: AbortSignal,
  as: { readonly command: string; readonly chosenBy: string; readonly named: string },
) =>
  runConformanceCommand(
    // Naming the checks is the choice --slow stands for.
    { ...options, only: [...only], slow: true, format: [...REPORT_FORMATS] },
    stop,
    { command: as.command, chosenBy: as.chosenBy, latest: false },
  ).catch((error: unknown) => {
    // Selection reports the name as --only's; on this command line it is the argument.
    if (isHarnessError(error, 'HARNESS_INPUT') && error.message.startsWith('--only:'))
      throw new InputError(error.message.replace(/^--only:/, `${as.named}:`));
    throw error;
  });

const replayOne = (checkId: string, options: Omit<ReplayOptions, 'failed'>) =>
  whileInterruptible(async (stop) => {
    const { exitCode, report } = await replayRun([checkId], options, stop, {
      command: `harness replay ${checkId}`,
      chosenBy: 'replaying one check',
      named: 'replay <check-id>',
    });
    for (const check of report?.checks.filter((c) => named(c, checkId)) ?? []) printReplayed(check);
    return exitCode;
  });

const replayFailed = (run: string, options: Omit<ReplayOptions, 'failed'>) => {
  const before = checksToReplay(run);
  if (before.length === 0) {
    say(
      tty`replay --failed: ${run} has no FAIL, WARN or INCONCLUSIVE check: nothing to replay (exit ${PASSED})`,
    );
    return Promise.resolve(PASSED);
  }
  return whileInterruptible(async (stop) => {
    const { exitCode, report } = await replayRun(
      before.map((check) => check.id),
      options,
      stop,
      {
        command: 'harness replay --failed',
        chosenBy: 'replaying the checks a run did not pass',
        named: `replay --failed ${run}`,
      },
    );
    const marked = markReplayed(before, report, exitCode);
    say(tty``);
    for (const line of marked.lines) say(line);
    return marked.exitCode;
  });
};

export const replay = async (
  checkId: string | undefined,
  { failed, ...options }: ReplayOptions,
): Promise<void> => {
  if (failed !== undefined && checkId !== undefined)
    throw new InputError(`replay: a check ID (${checkId}) or --failed, not both`);
  if (failed !== undefined)
    return exitWith(await replayFailed(runToReplay(failed, options.reportDir), options));
  if (checkId === undefined)
    throw new InputError('replay: name a check ID, or give --failed to replay what a run did not pass');
  exitWith(await replayOne(checkId, options));
};
