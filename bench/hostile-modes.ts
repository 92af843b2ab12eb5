// `npm run bench:hostile [MODE...]`: every hostile mode of issues 13, 22 and 35 (bench/hostile/modes*.ts)
// through the real CLI, printed as the Markdown table of a closing note: wall, exit code, peak RSS (/usr/bin/time's
// %M: the largest of harness and the children it reaped, k6 included), secrets found in any artifact, and the summary
// line. A mode that breaks what the issue demands (an exit code it forbids, a secret found, a process or temp folder
// left, what the mode itself forbids) is listed under the table, and the bench exits 1. HARNESS_BIN=path/to/harness.js measures another build. Linux only (it
// reads /proc); the machine is shared, so walls vary.
import { measure, type Row } from './hostile/measure.ts';
import { MODES as FIRST_ROUND } from './hostile/modes.ts';
import { SECOND_ROUND } from './hostile/modes-second.ts';
import { THIRD_ROUND } from './hostile/modes-third.ts';

const MODES = { ...FIRST_ROUND, ...SECOND_ROUND, ...THIRD_ROUND };
const names = process.argv.slice(2).length > 0 ? process.argv.slice(2) : Object.keys(MODES);
const unknown = names.filter((name) => !(name in MODES));
if (unknown.length > 0)
  throw new Error(`no mode ${unknown.join(', ')}; modes: ${Object.keys(MODES).join(', ')}`);

const rows: Row[] = [];
console.log('| mode | wall | exit | peak RSS | secrets found | verdict |\n|---|---|---|---|---|---|');
for (const name of names) {
  const row = await measure(name, MODES[name]!);
  rows.push(row);
  const verdict = row.verdict.replaceAll('|', '\\|');
  console.log(`| ${name} | ${row.wall} | ${row.exit} | ${row.rssMb} MB | ${row.found.length} | ${verdict} |`);
}
const broken = rows.filter((row) => row.problems.length > 0);
for (const row of broken) console.log(`\n${row.mode}: ${row.problems.join('; ')}`);
process.exitCode = broken.length > 0 ? 1 : 0;
