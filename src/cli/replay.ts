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
import { exitWith } from './exit-codes.ts';
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

export const replay = async (checkId: string, options: ReplayOptions): Promise<void> => {
  exitWith(
    await whileInterruptible(async (stop) => {
      const { exitCode, report } = await runConformanceCommand(
        // Naming the check is the choice --slow stands for.
        { ...options, only: [checkId], slow: true, format: [...REPORT_FORMATS] },
        stop,
        { command: `harness replay ${checkId}`, chosenBy: 'replaying one check' },
      ).catch((error: unknown) => {
        // Selection reports the name as --only's; on this command line it is the argument.
        if (isHarnessError(error, 'HARNESS_INPUT') && error.message.startsWith('--only:'))
          throw new InputError(error.message.replace(/^--only:/, 'replay <check-id>:'));
        throw error;
      });
      for (const check of report?.checks.filter((c) => named(c, checkId)) ?? []) printReplayed(check);
      return exitCode;
    }),
  );
};
