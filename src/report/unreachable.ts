// What a run that reached no target leaves behind (exit 3): the files CI publishes, each saying "target unreachable"
// and why, so a pipeline page shows that staging was down instead of a missing-file error in the next step.
import { escapeAttr, escapeText } from './escape.ts';
import { fixedReporter, type WriteOptions, type Written, writeRun } from './write.ts';

export const UNREACHABLE = 'target unreachable';
/** It answered, but gave no token or id to start with (load's pre-flight): exit 3 all the same. */
export const UNUSABLE = 'target unusable';

/**
 * One testsuite with one errored testcase named `what`: a JUnit viewer shows the run as broken, not as passed or
 * empty.
 */
export const unreachableJUnit = (suite: string, reason: string, what: string = UNREACHABLE): string =>
  [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${escapeAttr(suite)}" tests="1" failures="0" errors="1" skipped="0" time="0.000">`,
    `  <testsuite name="${escapeAttr(suite)}" tests="1" failures="0" errors="1" skipped="0" time="0.000">`,
    `    <testcase classname="${escapeAttr(suite)}" name="${escapeAttr(what)}" time="0.000">`,
    `      <error message="${escapeAttr(reason)}" type="UNREACHABLE">${escapeText(reason)}</error>`,
    '    </testcase>',
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');

/** The reason in a code block: it quotes addresses and error text, which Markdown would otherwise mangle. */
export const unreachableMarkdown = (
  title: string,
  reason: string,
  noun: 'check' | 'phase' = 'check',
): string =>
  [
    `# ${title}: ${UNREACHABLE}`,
    '',
    `**The target did not answer, so no ${noun} ran (exit 3).** Check that it is up and reachable from this runner, then run again.`,
    '',
    '```',
    reason.replaceAll('`', "'"),
    '```',
    '',
  ].join('\n');

/** Writes `files` (name to content) into the run's folder and points `latest` at it, unless told not to. */
export const writeUnreachableReports = (
  dir: string,
  files: Readonly<Record<string, string>>,
  options?: WriteOptions,
): Promise<Written> =>
  writeRun(
    dir,
    undefined,
    Object.entries(files).map(([name, content]) => fixedReporter(name, content)),
    options,
  );
