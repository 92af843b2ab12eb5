// Where a run's reports went, as the terminal says it: their folder and the page to open first, on one short line.
// Five absolute paths of one folder made a line of 500 characters that told no more.
import { basename, dirname, sep } from 'node:path';
import { RUN_INDEX } from './run-index.ts';

/**
 * `reports: /abs/reports/2026-11-27T21-03-33Z/ (open index.html)`, or the files' names where there is no index page;
 * files of several folders (certify's two runs) each in full. Untrusted (a path): the caller prints it through `tty`.
 */
export const reportsLine = (files: readonly string[]): string => {
  const folders = [...new Set(files.map((file) => dirname(file)))];
  if (folders.length !== 1) return `reports: ${files.join(', ')}`;
  const names = files.map((file) => basename(file));
  const open = names.includes(RUN_INDEX) ? `open ${RUN_INDEX}` : names.join(', ');
  return `reports: ${folders[0]}${sep} (${open})`;
};
