// What the terminal shows of a judged load run (report/load-reports.ts writes its files): a line per phase in its
// grade's colour, failures first, the latencies, the reports and the counts.
import { phaseLine } from '../../core/judged.ts';
import { latencyText } from '../../core/report-html.ts';
import { plural } from '../plural.ts';
import { joinTerminal, type TerminalText, terminalLines, tty } from '../printable.ts';
import { type Counted, failedNames, type LoadReportRun, tallies } from '../report/load-reports.ts';
import { reportsLine } from '../report/reports-line.ts';
import { type GradePainter, gradePainter } from './colour.ts';

/** phaseCounts with each count in its grade's colour, as conformance's summary line has them. */
const phaseCountsLine = (phases: Counted, paint: GradePainter): TerminalText =>
  tty`summary: ${plural(phases.length, 'phase')}: ${joinTerminal(
    tallies(phases).map(([grade, n]) => paint(grade, tty`${n} ${grade}`)),
    ', ',
  )}${failedNames(phases)}`;

/** Each phase's latency percentiles, on a line of its own below the verdicts. */
const latencyLines = (run: LoadReportRun): string[] =>
  (run.judged?.summary.phases ?? []).flatMap(({ plan, latencyMs }) =>
    latencyMs === undefined ? [] : [`latency  ${plan.name.padEnd(34)} ${latencyText(latencyMs)}`],
  );

/**
 * What the terminal shows of a judged run: a line per phase, failures first, then the reports (none when they could
 * not be written) and the counts. Phase names and messages come from summaries read back (`load merge` takes them
 * from any file), so every line is escaped.
 */
export const loadSummaryLines = (
  run: LoadReportRun,
  files: readonly string[],
  paint: GradePainter = gradePainter(process.stdout),
): TerminalText[] => [
  ...run.phases.map((p) => {
    // The grade in its colour, as conformance's: phaseLine starts with it, padded.
    const line = phaseLine(p.grade, p.name, p.message);
    return tty`${paint(p.grade)}${terminalLines(line.slice(p.grade.length))}`;
  }),
  ...[...latencyLines(run), ...(files.length > 0 ? [reportsLine(files)] : [])].map(terminalLines),
  phaseCountsLine(run.phases, paint),
];
