// `harness replay CHECK-ID`: one check run again on the target as conformance runs it (a limit check with its
// bucket's whole probe: bursts no shell loop of curls can send in time), its verdict and evidence printed last.
// The run is conformance's own, so it writes the same reports and exits with the same code.
import type { Evidence } from '../client/index.ts';
import { isHarnessError } from '../errors.ts';
import { REPORT_FORMATS } from '../report/write.ts';
import type { CheckResult } from '../runner/types.ts';
import type { ReplayOptions } from './commands.ts';
import { runConformanceCommand } from './conformance.ts';
import { UsageError } from './errors.ts';
import { whileInterruptible } from './signals.ts';

const out = (line = ''): void => console.log(line);

const evidenceLine = (evidence: Evidence): string => {
  const { label, request, response, error, durationMs } = evidence;
  const answer = response
    ? `${response.status}${response.headers['retry-after'] === undefined ? '' : ` (Retry-After: ${response.headers['retry-after']})`}`
    : `no answer${error === undefined ? '' : ` (${error.kind})`}`;
  return `${label === undefined ? '' : `'${label}' `}${request.method} ${request.url} → ${answer}, ${Math.round(durationMs)} ms`;
};

const printReplayed = (check: CheckResult): void => {
  out();
  out(`replayed ${check.id} (${check.clause}): ${check.grade}`);
  out(`  ${check.message}`);
  if (check.evidence.length > 0) out('  evidence:');
  for (const evidence of check.evidence) out(`    ${evidenceLine(evidence)}`);
};

/** The name is matched as --only matches it: a check ID, or a tag naming several (each printed). */
const named = (check: CheckResult, name: string): boolean =>
  check.id.toLowerCase() === name.toLowerCase() || check.tags.includes(name.toLowerCase());

export const replay = async (checkId: string, options: ReplayOptions): Promise<void> => {
  process.exitCode = await whileInterruptible(async (stop) => {
    const { exitCode, report } = await runConformanceCommand(
      // Naming the check is the choice --slow stands for.
      { ...options, only: [checkId], slow: true, format: [...REPORT_FORMATS] },
      stop,
      { command: `harness replay ${checkId}`, chosenBy: 'replaying one check' },
    ).catch((error: unknown) => {
      // Selection reports the name as --only's; on this command line it is the argument.
      if (isHarnessError(error, 'HARNESS_INPUT') && error.message.startsWith('--only:'))
        throw new UsageError(error.message.replace(/^--only:/, 'replay <check-id>:'));
      throw error;
    });
    for (const check of report?.checks.filter((c) => named(c, checkId)) ?? []) printReplayed(check);
    return exitCode;
  });
};
