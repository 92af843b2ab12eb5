// Where a run's reports went, as the terminal says it: their folder and the page to open first, on one short line.
// Five absolute paths of one folder made a line of 500 characters that told no more.
import { dirname, join, relative, sep } from 'node:path';
import { RUN_INDEX } from './run-index.ts';

const isIn = (dir: string, folder: string): boolean =>
  dir === folder || dir.startsWith(folder.endsWith(sep) ? folder : `${folder}${sep}`);

/** The deepest folder holding every file (a load run's runners/ sit below its own folder). */
const commonFolder = (files: readonly string[]): string =>
  files
    .map((file) => dirname(file))
    .reduce((common, dir) => {
      let folder = common;
      while (!isIn(dir, folder) && dirname(folder) !== folder) folder = dirname(folder);
      return folder;
    });

/**
 * `reports: /abs/reports/2026-11-27T21-03-33Z/ (open index.html)`, or the files' names in it where there is no index
 * page. `files` is not empty. Untrusted (a path): the caller prints it through `tty`.
 */
export const reportsLine = (files: readonly string[]): string => {
  const folder = commonFolder(files);
  const index = join(folder, RUN_INDEX);
  const open = files.includes(index)
    ? `open ${RUN_INDEX}`
    : files.map((file) => relative(folder, file)).join(', ');
  return `reports: ${folder.endsWith(sep) ? folder : `${folder}${sep}`} (${open})`;
};
