// `harness conformance --list`: every check a full run has, to pick --only/--skip names from; --json for scripts.
import { allChecks } from '../../conformance/index.ts';
import { SPEC_TARGET } from '../profile/spec-target.ts';
import { table, terminalWidth } from '../text-table.ts';

export const listChecks = (json: boolean): void => {
  const checks = allChecks(SPEC_TARGET).map((c) => ({
    id: c.id,
    tags: c.tags,
    clause: c.clause,
    title: c.title,
    required: c.required,
    slow: c.slow === true,
  }));
  if (json) {
    console.log(JSON.stringify(checks, null, 2));
    return;
  }
  const rows = checks.map((c) => [c.id, c.tags.join(','), c.clause, c.title]);
  for (const line of table([['ID', 'TAGS', 'CLAUSE', 'TITLE'], ...rows], terminalWidth(process.stdout))) {
    console.log(line);
  }
};
